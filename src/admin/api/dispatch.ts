// The one stage behind every /admin/api/... call: find the route, refuse cross-site state changes, identify
// the caller, enforce the route's access rule (tenant isolation lives here, on the server), run the handler.
import type { RequestContext } from '../../gateway/context.js';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Stage } from '../../gateway/compose.js';
import type { Actor, ActorDeps, Caller } from '../auth/actor.js';
import { identify } from '../auth/actor.js';
import { secretEquals } from '../../lib/secret-equal.js';
import type { PathMatcher } from '../http/path-pattern.js';
import { compilePattern } from '../http/path-pattern.js';
import { sendJson } from '../http/send.js';
import { crossSiteProblem } from '../http/same-origin.js';
import { clientAddress } from '../../policy/ratelimit/client-address.js';
import type { ApiRoute } from './types.js';

export const API_PREFIX = '/admin/api';
export const CSRF_HEADER = 'x-csrf-token';

interface Compiled {
  route: ApiRoute;
  match: PathMatcher;
}

export function adminApiStage(routes: readonly ApiRoute[], deps: ActorDeps): Stage {
  const compiled: Compiled[] = routes.map((route) => ({ route, match: compilePattern(route.pattern) }));
  return async (ctx) => {
    const path = pathOf(ctx);
    const { route, params } = find(compiled, ctx.req.method ?? 'GET', path);
    const changesState = route.method !== 'GET';
    if (changesState) {
      const problem = crossSiteProblem(ctx.req);
      if (problem !== null) throw new GatewayError('forbidden', problem);
    }
    const caller: Caller = route.access === 'public' ? { actor: null, session: null } : await identify(ctx.req, deps);
    admit(route, caller.actor, params);
    if (changesState && caller.session !== null) checkCsrfToken(ctx, caller.session.session.csrfToken);
    const body = changesState && ctx.json !== null ? ctx.json : {};
    const address = clientAddress(ctx.req.socket.remoteAddress, ctx.req.headers['x-forwarded-for'], deps.trustedProxies) ?? null;
    const reply = await route.handler({ ctx, actor: caller.actor, session: caller.session, params, query: new URLSearchParams(ctx.query), address, body });
    sendJson(ctx.res, ctx.headers, reply.status, reply.body, reply.headers);
  };
}

function pathOf(ctx: RequestContext): string {
  const url = ctx.req.url ?? '/';
  const q = url.indexOf('?');
  return (q === -1 ? url : url.slice(0, q)).slice(API_PREFIX.length);
}

function find(compiled: readonly Compiled[], method: string, path: string): { route: ApiRoute; params: Record<string, string> } {
  let pathKnown = false;
  for (const c of compiled) {
    const params = c.match(path);
    if (params === null) continue;
    if (c.route.method === method) return { route: c.route, params };
    pathKnown = true;
  }
  if (pathKnown) throw new GatewayError('method_not_allowed', `Method ${method} is not allowed here.`);
  throw new GatewayError('route_not_found', 'No such endpoint.');
}

/** Throws unless the caller may use the route; a customer user asking about another customer sees 404. */
function admit(route: ApiRoute, actor: Actor | null, params: Readonly<Record<string, string>>): void {
  if (route.access === 'public') return;
  if (actor === null) throw new GatewayError('unauthenticated', 'Sign in first.');
  if (route.access === 'signed-in' || actor.role === 'operator') return;
  if (route.access === 'operator') throw new GatewayError('forbidden', 'Only operators may do this.');
  if (params.customerId !== actor.customerId) throw new GatewayError('not_found', 'No such customer.');
}

function checkCsrfToken(ctx: RequestContext, expected: string): void {
  const given = ctx.req.headers[CSRF_HEADER];
  if (typeof given !== 'string' || !secretEquals(given, expected)) {
    throw new GatewayError('forbidden', `Missing or wrong ${CSRF_HEADER} header.`);
  }
}
