// Upstream routes as operators see them now: every provider (an account, a cloud region) with its
// type, and every route with its weight, priority, circuit breaker, cool-down and the headroom its
// provider last reported. This instance's view: cool-downs learned from the fleet included. Never a
// credential or an endpoint's secret: only ids, types and counts.
import type { Provider } from '../../providers/provider.js';
import type { RouteTable } from '../../policy/routing/route-table.js';
import { routeView, type RouteView } from '../../policy/routing/route-view.js';
import type { ApiRoute } from './types.js';
import { ok } from './types.js';

export interface ProviderView {
  id: string;
  type: string;
  /** Routes made so far that go through it. */
  routes: number;
}

export interface RoutesOverview {
  /** When this was read (ISO): cool-downs are relative to it. */
  at: string;
  providers: ProviderView[];
  routes: RouteView[];
}

export function routesOverview(providers: readonly Provider[], table: RouteTable, wallNow: number): RoutesOverview {
  const routes = table.all().map((state) => routeView(state, wallNow));
  return {
    at: new Date(wallNow).toISOString(),
    providers: providers.map((p) => ({ id: p.id, type: p.type, routes: routes.filter((r) => r.provider === p.id).length })),
    routes,
  };
}

export function routeTableRoutes(providers: readonly Provider[], table: RouteTable, wallClock: () => number): ApiRoute[] {
  return [{ method: 'GET', pattern: '/routes', access: 'operator', handler: async () => ok(routesOverview(providers, table, wallClock())) }];
}
