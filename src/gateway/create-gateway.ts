// createGateway(runtime) → { handle(req, res) }: the whole gateway as one request handler, so the
// server, tests and benchmarks mount the same thing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteInfo } from './context.js';
import { createContext } from './context.js';
import type { ErrorCode } from '../dialects/errors/codes.js';
import { writeErrorResponse } from '../dialects/errors/render.js';
import type { HttpRoute } from './routes.js';
import { buildRoutes } from './routes.js';
import { newRequestId } from '../observability/request-id.js';
import { errorFormatOf } from './surfaces.js';
import type { Runtime } from './runtime.js';
import { errorMessage } from '../lib/error-message.js';

export interface Gateway {
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export function createGateway(rt: Runtime, extraRoutes: readonly HttpRoute[] = []): Gateway {
  return gatewayOver(rt, buildRoutes(rt, extraRoutes));
}

/** The same request handling over another route table (the metrics listener's, of one route). */
export function gatewayOver(rt: Runtime, routes: readonly HttpRoute[]): Gateway {
  // path → method → route: two lookups on strings the request already has, no key built per request.
  const table = new Map<string, Map<string, HttpRoute>>();
  for (const r of routes) {
    let byMethod = table.get(r.path);
    if (byMethod === undefined) table.set(r.path, (byMethod = new Map()));
    byMethod.set(r.method, r);
  }
  const { lifecycle, logger } = rt;
  const maxInFlight = rt.config.limits.maxInFlight;
  const prefixRoutes = routes.filter((r) => r.path.endsWith('/*'));
  // One function for every request, not a closure each.
  const release = (): void => {
    lifecycle.inFlight--;
  };

  return {
    handle(req, res) {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      const byMethod = table.get(path);
      const route = (byMethod === undefined ? undefined : byMethod.get(req.method!)) ?? matchPrefix(prefixRoutes, req.method, path);
      const id = newRequestId();
      if (route === undefined) {
        // The path exists with other methods: an exact route, or one under a mounted prefix.
        const sibling = byMethod === undefined ? matchPrefix(prefixRoutes, null, path) : byMethod.values().next().value;
        if (sibling !== undefined) setFixedHeaders(res, sibling.info);
        const code: ErrorCode = sibling !== undefined ? 'method_not_allowed' : 'route_not_found';
        return writeErrorResponse(res, id, errorFormatOf(path), code, code === 'method_not_allowed' ? `Method ${req.method} is not allowed here.` : 'No such endpoint.');
      }
      setFixedHeaders(res, route.info);
      if (lifecycle.inFlight >= maxInFlight && route.info.surface !== 'other') {
        rt.metrics.loadShed(route.info.surface);
        res.setHeader('retry-after', '1');
        return writeErrorResponse(res, id, route.info.errorFormat, 'overloaded', 'The gateway is at its in-flight limit; retry shortly.');
      }
      if (lifecycle.draining) res.setHeader('connection', 'close');
      const ctx = createContext(id, req, res, route.info, q === -1 ? '' : url.slice(q), performance.now());
      // 'close' comes once per response: `on` spares the wrapper `once` would build.
      res.on('close', () => {
        if (!res.writableFinished) ctx.cancellation.cancel();
      });
      lifecycle.inFlight++;
      route.handler(ctx).then(release, (err: unknown) => {
        logger.error({ reqId: id, err: errorMessage(err) }, 'request handler failed');
        if (!res.headersSent) writeErrorResponse(res, id, route.info.errorFormat, 'internal', 'The gateway failed to handle this request.');
        else res.destroy();
        release();
      });
    },
  };
}

/** `method` null: a route of any method. */
function matchPrefix(routes: readonly HttpRoute[], method: string | null | undefined, path: string): HttpRoute | undefined {
  return routes.find((r) => (method === null || r.method === method) && path.startsWith(r.path.slice(0, -1)));
}

function setFixedHeaders(res: ServerResponse, info: RouteInfo): void {
  const fixed = info.fixedHeaders;
  if (fixed !== undefined) for (const name in fixed) res.setHeader(name, fixed[name]);
}

export type { RouteInfo };
