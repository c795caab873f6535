// The routes mounted beside the model surfaces: the dashboard and its admin API. One place, so the
// server, the cluster workers and the tests serve the same thing.
import type { BuiltRuntime } from './build-runtime.js';
import { buildDashboard } from './build-admin.js';
import type { HttpRoute } from '../../gateway/routes.js';

export function mountedRoutes(built: BuiltRuntime): HttpRoute[] {
  return buildDashboard(built.runtime, { stores: built.stores, adminToken: built.adminToken });
}
