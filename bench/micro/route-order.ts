// Choosing a route on the hot path: the planner's order for a model with one route (every model of a
// gateway without configured providers) against one with four (weights 1 to 4), for a request without
// a session (smooth weighted round robin) and one with (rendezvous). `node dist/bench/micro/route-order.js`
import type { BreakerSettings } from '../../src/config/config.js';
import { CircuitBreaker } from '../../src/policy/resilience/circuit-breaker.js';
import { orderRoutes } from '../../src/policy/routing/planner.js';
import { hashString } from '../../src/policy/routing/rendezvous.js';
import { makeRoute } from '../../src/policy/routing/route.js';
import { RouteState } from '../../src/policy/routing/route-state.js';
import type { Provider } from '../../src/providers/provider.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';

const BREAKER: BreakerSettings = { minCalls: 20, failurePercent: 50, windowMs: 30_000, coolDownMs: 30_000 };

function routeStates(count: number): RouteState[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `claude-sonnet-4-6@account-${i + 1}`;
    const route = makeRoute({ model: 'claude-sonnet-4-6', provider: { id: `account-${i + 1}` } as Provider, providerModel: null, weight: i + 1, priority: 1, prices: null }, name);
    return new RouteState(route, new CircuitBreaker(name, BREAKER));
  });
}

export function routeOrderCases(): MicroCase[] {
  const one = routeStates(1);
  const four = routeStates(4);
  const now = Date.now();
  let n = 0;
  return [
    { name: 'route order: 1 route', fn: () => orderRoutes(one, n++, now, false) },
    { name: 'route order: 4 routes, no session (round robin)', fn: () => orderRoutes(four, n++, now, false) },
    { name: 'route order: 4 routes, a session (rendezvous, with its hash)', fn: () => orderRoutes(four, hashString(`session-${n++ & 1023}`), now, true) },
  ];
}

if (isMain(import.meta.url)) console.log(formatResults('route order, per request', routeOrderCases().map((c) => measure(c))));
