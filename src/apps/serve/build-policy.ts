// The composition root's policy: routes with their breakers and the router over them, the rate limits
// (the fleet's in Redis, the cluster primary's, or this process's), the failed-authentication
// throttle and the spend budgets.
import type { Logger } from 'pino';
import type { ModelsFileSettings } from '../../catalog/load-models-file.js';
import type { Catalogue } from '../../catalog/catalogue.js';
import type { GatewayConfig } from '../../config/config.js';
import type { ModelsFile } from '../../config/models-file.js';
import { errorMessage } from '../../lib/error-message.js';
import type { GatewayMetrics } from '../../observability/metrics.js';
import type { BudgetLedger } from '../../policy/budgets/budget-ledger.js';
import { seedFromUsage } from '../../policy/budgets/budget-seed.js';
import { ReservationPrices } from '../../policy/budgets/reservation-prices.js';
import { MemoryBudgetLedger } from '../../policy/budgets/memory-budget-ledger.js';
import { FallbackBudgetLedger } from '../../policy/budgets/redis/fallback-budget-ledger.js';
import { RedisBudgetLedger } from '../../policy/budgets/redis/redis-budget-ledger.js';
import { AuthThrottle } from '../../policy/ratelimit/auth-throttle.js';
import { clusterLimits } from '../../policy/ratelimit/cluster-limits-channel.js';
import type { RateLimiter } from '../../policy/ratelimit/limiter.js';
import { MemoryRateLimiter } from '../../policy/ratelimit/memory-limiter.js';
import { shareAuthFailures } from '../../policy/ratelimit/redis/fleet-auth-failures.js';
import { startSharedLimiter, type SharedLimiter } from '../../policy/ratelimit/redis/shared-limiter.js';
import { RetryPolicy } from '../../policy/resilience/retry-policy.js';
import { attemptOutcome, routeReadings } from '../../policy/routing/route-readings.js';
import { RouteTable } from '../../policy/routing/route-table.js';
import { Router } from '../../policy/routing/router.js';
import { FleetCoolDowns } from '../../policy/routing/redis/fleet-cool-downs.js';
import type { Provider } from '../../providers/provider.js';
import type { Stores } from '../../stores/stores.js';

export interface PolicyInputs {
  providers: Provider[];
  catalogue: Catalogue;
  modelsFile: ModelsFile | null;
  fileSettings: ModelsFileSettings;
  metrics: GatewayMetrics;
  logger: Logger;
  stores: Stores;
  clusterWorker: boolean;
  /** The runtime's wall clock: cool-downs and rate-limit resets are wall-clock moments, so a test can step it. */
  wallClock?: () => number;
}

export interface BuiltPolicy {
  routes: RouteTable;
  router: Router;
  /** The fleet's Redis layer and limiter; null without REDIS_URL. */
  shared: SharedLimiter | null;
  /** Route cool-downs shared over the fleet; null without REDIS_URL. */
  fleetCoolDowns: FleetCoolDowns | null;
  limiter: RateLimiter;
  authThrottle: AuthThrottle | null;
  budgets: BudgetLedger;
  /** The prices each catalogue model's requests reserve at under a budget, from its routes and fallbacks. */
  reservationPrices: ReservationPrices;
}

export async function buildPolicy(config: GatewayConfig, inputs: PolicyInputs): Promise<BuiltPolicy> {
  const { providers, catalogue, modelsFile, fileSettings, metrics, logger, stores, clusterWorker, wallClock } = inputs;
  const routes = new RouteTable({
    providers,
    named: modelsFile?.providers !== undefined,
    configured: fileSettings.routes,
    breaker: config.breaker,
    onBreakerChange: (route, state, previous) => {
      metrics.circuitState(route, state);
      // A route's breaker is made, closed, by its first request: that is no news.
      if (previous !== null) logger.warn({ route, state, previous }, 'the circuit breaker of a route changed state');
    },
  });
  // With Redis every instance (a cluster worker too) counts against the fleet's buckets.
  const shared = config.redisUrl === null ? null : await startSharedLimiter(config.redisUrl, config.redisPrefix, metrics, logger);
  // ... and every route's cool-down holds on every instance.
  const fleetCoolDowns = shared === null ? null : shareCoolDowns(shared, routes, logger);
  const router = new Router(
    routes,
    new RetryPolicy(config.retry),
    catalogue,
    {
      retry: (reason) => metrics.retry(reason),
      upstreamError: (kind) => metrics.upstreamError(kind),
      fallback: (from, to, status) => logger.info({ from, to, upstreamStatus: status }, 'falling back to another model'),
      attempted: (route, result) => metrics.routeAttempt(route.name, route.provider.id, attemptOutcome(result)),
      cooled: (route, coolDown) => fleetCoolDowns?.share(route.name, coolDown),
    },
    undefined,
    wallClock,
  );
  metrics.watchRoutes(() => routeReadings(routes, Date.now()));
  const { limiter, authThrottle } = rateLimits(config.rateLimits.authFailuresPerMinute, clusterWorker, logger, shared?.limiter ?? null);
  // Failed authentications count over the fleet too; the local throttle stays the fast path and the fallback.
  if (shared !== null && authThrottle !== null) {
    shareAuthFailures(authThrottle, shared.store.redis, {
      prefix: shared.store.prefix,
      failuresPerMinute: config.rateLimits.authFailuresPerMinute,
      onError: (err) => logger.error({ err: errorMessage(err) }, 'recording a failed authentication in Redis failed'),
    });
  }
  const budgets = budgetLedger(stores, shared, logger);
  const reservationPrices = new ReservationPrices(catalogue, routes);
  return { routes, router, shared, fleetCoolDowns, limiter, authThrottle, budgets, reservationPrices };
}

/** Route cool-downs learned by any instance of the fleet apply here too, read from Redis a few times a second. */
function shareCoolDowns(shared: SharedLimiter, routes: RouteTable, logger: Logger): FleetCoolDowns {
  const coolDowns = new FleetCoolDowns(shared.store.redis, { coolUntil: (name, until, reason) => routes.byRouteName(name)?.coolUntil(until, reason) }, {
    prefix: shared.store.prefix,
    onError: (err) => logger.error({ err: errorMessage(err) }, 'sharing route cool-downs through Redis failed'),
  });
  // The cool-downs already in force when this instance starts.
  void coolDowns.read();
  return coolDowns;
}

/**
 * The fleet's limiter (Redis) when there is one; otherwise a worker of serve --workers N counts against
 * the primary's buckets, and a lone process against its own. The failed-authentication throttle is
 * this host's (the primary's, for a worker); with Redis its failures are also counted over the fleet.
 */
function rateLimits(
  authFailuresPerMinute: number,
  clusterWorker: boolean,
  logger: Logger,
  fleet: RateLimiter | null,
): { limiter: RateLimiter; authThrottle: AuthThrottle | null } {
  const host = clusterWorker
    ? clusterLimits(authFailuresPerMinute, logger)
    : { limiter: new MemoryRateLimiter(), authThrottle: authFailuresPerMinute > 0 ? new AuthThrottle(authFailuresPerMinute) : null };
  return fleet === null ? host : { limiter: fleet, authThrottle: host.authThrottle };
}

/**
 * Spend budgets count in Redis when there is one (fleet-wide; while Redis does not answer, a hard
 * budget spends only the lease this instance holds there), else in this process; either way a period's counter starts from the
 * usage store's rollup. A worker of serve --workers N without Redis counts alone (docs/spend.md).
 */
function budgetLedger(stores: Stores, shared: SharedLimiter | null, logger: Logger): BudgetLedger {
  const seed = seedFromUsage(stores.usage);
  if (shared === null) return new MemoryBudgetLedger(seed);
  // Each instance's lease: what is free divided by twice the live instances (docs/spend.md).
  const leaseDivisor = () => 2 * Math.max(1, shared.instances.liveInstances);
  const inRedis = new RedisBudgetLedger(shared.store.redis, shared.store.prefix, seed, { leaseDivisor });
  return new FallbackBudgetLedger(inRedis, shared.store.redis, seed, (event, reason) => {
    if (event === 'fallback') logger.warn({ reason }, 'Redis unreachable: spend budgets count in this instance; a hard budget spends only the slice this instance holds');
    else logger.info('Redis answers again: spend budgets are counted by the fleet');
  });
}

