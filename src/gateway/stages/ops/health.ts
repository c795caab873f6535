// Liveness, readiness and the Prometheus scrape endpoint.
import { endJson } from '../../../lib/json-response.js';
import type { Stage } from '../../compose.js';
import type { Runtime } from '../../runtime.js';
import { routeView } from '../../../policy/routing/route-view.js';
import type { RouteState } from '../../../policy/routing/route-state.js';

function json(status: number, body: unknown): Stage {
  const text = JSON.stringify(body);
  return async (ctx) => endJson(ctx.res, status, text, ctx.headers);
}

export const healthzStage: Stage = json(200, { status: 'ok' });

export function readyzStage(rt: Runtime): Stage {
  const { routes, wallClock } = rt;
  return async (ctx) => {
    rt.lifecycle.readinessAskedAt = performance.now();
    const database = (await rt.stores.ready()).database === 'up';
    const draining = rt.lifecycle.draining;
    // A database the whole fleet shares being down is reported, not a reason to fail every instance
    // at once: each keeps serving the keys it has loaded. This host's own database file is one.
    const ready = (database || rt.stores.shared) && !draining;
    const body = JSON.stringify({
      status: ready ? 'ready' : 'not_ready',
      draining,
      database: database ? 'ok' : 'unreachable',
      upstream: rt.simulated ? 'simulator' : 'configured',
      models: rt.catalogue.live ? 'live' : 'configured',
      // Detail only, per route: an open circuit or a route out of headroom is the upstream's trouble,
      // and taking this instance out of the load balancer would not help.
      circuits: circuitStates(routes.all()),
      routes: routes.all().map((state) => routeView(state, wallClock())),
    });
    endJson(ctx.res, ready ? 200 : 503, body, ctx.headers);
  };
}

export function metricsStage(rt: Runtime): Stage {
  // Exemplars point at traces: OpenMetrics, the format that carries them, only when there are traces.
  const exemplars = rt.tracing.enabled;
  return async (ctx) => {
    const { contentType, body } = await rt.metrics.render(exemplars && asksForOpenMetrics(ctx.req.headers.accept));
    endJson(ctx.res, 200, body, ctx.headers, contentType);
  };
}

/** Prometheus asks for OpenMetrics first (`Accept: application/openmetrics-text;version=1.0.0;q=0.5,...,text/plain;...`). */
function asksForOpenMetrics(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/openmetrics-text');
}

/** Route name → circuit state, for every route that exists so far. */
function circuitStates(states: readonly RouteState[]): Record<string, string> {
  // No prototype: a route named like an Object property stays a plain entry.
  const out: Record<string, string> = Object.create(null);
  for (const s of states) out[s.route.name] = s.breaker.state;
  return out;
}
