// The routes mounted beside the model surfaces: the dashboard and its admin API. One place, so the
// server, the cluster workers and the tests serve the same thing.
import type { BuiltRuntime } from './build-runtime.js';
import { dashboardRoutes } from '../../admin/routes.js';
import type { HttpRoute } from '../../gateway/routes.js';

export function mountedRoutes(built: BuiltRuntime): HttpRoute[] {
  return dashboardRoutes(built.runtime, { stores: built.stores, adminToken: built.adminToken });
}
