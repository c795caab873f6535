// What the metrics read of the routes: how an attempt ended as a metric label, and each route's
// cool-down and headroom at a scrape.
import type { RouteAttemptOutcome, RouteReading } from '../../observability/metrics.js';
import type { AttemptResult } from './router.js';
import type { RouteTable } from './route-table.js';

export function attemptOutcome(result: AttemptResult): RouteAttemptOutcome {
  if ('failure' in result) {
    const f = result.failure;
    return f === 'cut' ? 'protocol' : f === 'stalled' ? 'timeout' : f === 'cancelled' ? 'reset' : f;
  }
  const s = result.status;
  if (s === 429) return 'rate_limited';
  if (s === 401 || s === 403) return 'auth_failed';
  if (s >= 500) return 'upstream_error';
  if (s >= 400) return 'client_error';
  return 'ok';
}

export function routeReadings(routes: RouteTable, wallNow: number): RouteReading[] {
  return routes.all().map((state) => ({
    route: state.route.name,
    provider: state.route.provider.id,
    cooling: state.coolingAt(wallNow)?.reason ?? null,
    headroom: state.headroom?.remaining ?? null,
  }));
}
