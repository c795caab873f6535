// The long-lived services a gateway's stages share, built once per process (see build-runtime.ts).
// Stages take what they need from it when the routes are built, never per request.
import type { Logger } from 'pino';
import type { Catalogue } from '../catalog/catalogue.js';
import type { GatewayConfig } from '../config/config.js';
import type { KeyCache } from '../keys/key-cache.js';
import type { UsageWriter } from '../metering/usage-writer.js';
import type { AccessLog } from '../observability/logger.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import type { Tracing } from '../observability/tracing/request-trace.js';
import type { AuthThrottle } from '../policy/ratelimit/auth-throttle.js';
import type { RateLimiter } from '../policy/ratelimit/limiter.js';
import type { FleetStore } from '../stores/redis/fleet-store.js';
import type { Router } from '../policy/routing/router.js';
import type { RouteTable } from '../policy/routing/route-table.js';
import type { Translators } from '../dialects/translators/registry.js';
import type { BudgetLedger } from '../policy/budgets/budget-ledger.js';
import type { ReservationPrices } from '../policy/budgets/reservation-prices.js';
import type { Stores } from '../stores/stores.js';
import type { Provider } from '../providers/provider.js';
import type { TranslatePool } from './offload/pool.js';

export interface Lifecycle {
  draining: boolean;
  inFlight: number;
  /** performance.now() of the last /readyz: whether anyone (a load balancer) watches readiness (server.ts, drain). */
  readinessAskedAt?: number;
}

export interface Runtime {
  readonly config: GatewayConfig;
  readonly logger: Logger;
  /** One line per request, written by hand into the logger's stream (observability/logger.ts). */
  readonly accessLog: AccessLog;
  readonly metrics: GatewayMetrics;
  /** OpenTelemetry traces when an OTLP endpoint is set; a no-op otherwise (observability/tracing/). */
  readonly tracing: Tracing;
  readonly keys: KeyCache;
  readonly catalogue: Catalogue;
  /** The upstream providers, each with its connection pool and credential (src/providers); the first serves models without routes. */
  readonly providers: readonly Provider[];
  /** The translator of every pair of client dialect and provider dialect. */
  readonly translators: Translators;
  /** Every route of every model with its state (cool-downs, headroom, circuit breaker), for /readyz and the dashboard. */
  readonly routes: RouteTable;
  /** Sends a request over its model's routes: failover, retries, fallbacks. */
  readonly router: Router;
  /** Per-key and per-customer limits: this process's buckets, or the cluster primary's in a worker. */
  readonly limiter: RateLimiter;
  /** Spend so far per budget and period: Redis's counters (fleet-wide) or this process's. */
  readonly budgets: BudgetLedger;
  /** Per catalogue model, the prices a budget reserves at: the dearest of its routes and fallbacks'. */
  readonly reservationPrices: ReservationPrices;
  /** The wall clock that decides a budget's period (Date.now; tests stand at a month's end with it). */
  readonly wallClock: () => number;
  /** Failed authentications per client address; null when GATEWAY_AUTH_FAILURES_PER_MINUTE is 0. */
  readonly authThrottle: AuthThrottle | null;
  /** The Redis the fleet shares (REDIS_URL), for the dashboard's sign-in throttle; absent without one. */
  readonly fleetStore?: FleetStore | null;
  /** True when answers come from the built-in simulator: every response says so. */
  readonly simulated: boolean;
  readonly usage: UsageWriter;
  /** Keys, usage, dashboard users and sessions (for /readyz: whether the database answers). */
  readonly stores: Stores;
  readonly lifecycle: Lifecycle;
  /** Worker threads for large chat bodies; null when translation runs inline only. */
  readonly translatePool: TranslatePool | null;
}
