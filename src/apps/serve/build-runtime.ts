// The composition root: every long-lived service of one gateway process (logger, stores, key cache,
// usage writer, providers, catalogue, metrics, circuit breakers, resilient caller, rate limiter,
// failed-authentication throttle, translation pool) is built here from the configuration, once, and
// handed to what uses it through the Runtime. Also tears them down in the right order (stop taking
// work → flush usage → close the database).
import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { adminTokenOf } from '../../config/admin-token.js';
import { Catalogue } from '../../catalog/catalogue.js';
import { modelsFileSettings } from '../../catalog/load-models-file.js';
import { readModelsFile } from '../../config/models-file.js';
import { buildProviders } from '../../providers/build-providers.js';
import { Translators } from '../../dialects/translators/registry.js';
import { messagesToAnthropic } from '../../dialects/translators/messages-to-anthropic/translator.js';
import { chatToAnthropic } from '../../dialects/translators/chat-to-anthropic/translator.js';
import { responsesToAnthropic } from '../../dialects/translators/responses-to-anthropic/translator.js';
import { RouteTable } from '../../policy/routing/route-table.js';
import { Router } from '../../policy/routing/router.js';
import { attemptOutcome, routeReadings } from '../../policy/routing/route-readings.js';
import { DEFAULT_MODELS } from '../../catalog/model.js';
import { clusterLimits } from '../../policy/ratelimit/cluster-limits-channel.js';
import { clusterWideMetrics } from '../../observability/cluster-metrics-channel.js';
import type { GatewayConfig } from '../../config/config.js';
import { KeyCache } from '../../keys/key-cache.js';
import { UsageSpill } from '../../metering/usage-spill.js';
import { UsageWriter } from '../../metering/usage-writer.js';
import { createLogging } from '../../observability/logger.js';
import { createMetrics } from '../../observability/metrics.js';
import { observeStores } from '../../stores/store-metrics.js';
import { AuthThrottle } from '../../policy/ratelimit/auth-throttle.js';
import type { RateLimiter } from '../../policy/ratelimit/limiter.js';
import { MemoryRateLimiter } from '../../policy/ratelimit/memory-limiter.js';
import { customerLimitsLookup } from '../../policy/ratelimit/request-limits.js';
import { shareAuthFailures } from '../../policy/ratelimit/redis/fleet-auth-failures.js';
import { startSharedLimiter, type SharedLimiter } from '../../policy/ratelimit/redis/shared-limiter.js';
import { RetryPolicy } from '../../policy/resilience/retry-policy.js';
import type { Runtime } from '../../gateway/runtime.js';
import { startSimulator } from '../simulator/index.js';
import type { BudgetLedger } from '../../policy/budgets/budget-ledger.js';
import { seedFromUsage } from '../../policy/budgets/budget-seed.js';
import { MemoryBudgetLedger } from '../../policy/budgets/memory-budget-ledger.js';
import { FallbackBudgetLedger } from '../../policy/budgets/redis/fallback-budget-ledger.js';
import { RedisBudgetLedger } from '../../policy/budgets/redis/redis-budget-ledger.js';
import { openStores } from '../../stores/open-stores.js';
import type { Stores } from '../../stores/stores.js';
import type { Simulator } from '../simulator/index.js';
import { createTranslatePool } from '../../gateway/offload/pool.js';
import { errorMessage } from '../../lib/error-message.js';
import type { TracingSettings } from '../../config/tracing-config.js';
import type { GatewayMetrics } from '../../observability/metrics.js';
import type { Tracing } from '../../observability/tracing/request-trace.js';
import { NO_TRACING } from '../../observability/tracing/request-trace.js';

export interface BuiltRuntime {
  runtime: Runtime;
  adminToken: string;
  adminTokenPath: string | null;
  /** Keys, usage, dashboard users and sessions, in whichever database DATABASE_URL names. */
  stores: Stores;
  simulator: Simulator | null;
  close(): Promise<void>;
}

export interface BuildOptions {
  logDestination?: Writable;
  /** Use this simulator instead of starting one (tests that inspect or fault the upstream). */
  simulator?: Simulator;
  /**
   * True in a worker of `serve --workers N`: rate limits and failed-authentication counts are the
   * cluster primary's, shared by every worker (src/policy/ratelimit/cluster-limits-channel.ts), and /metrics answers
   * with the sum over all workers (src/observability/cluster-metrics-channel.ts).
   */
  clusterWorker?: boolean;
  /** The wall clock that decides budget periods; Date.now unless a test stands at a period's end. */
  wallClock?: () => number;
}

export async function buildRuntime(config: GatewayConfig, overrides: BuildOptions = {}): Promise<BuiltRuntime> {
  const clusterWorker = overrides.clusterWorker === true;
  const admin = adminTokenOf(config);
  // The collector's headers often carry its API key: redacted like the gateway's own secrets.
  const exportHeaders = Object.values(config.tracing?.exporter.headers ?? {}).filter((v) => v.length >= 8);
  const secrets = [config.upstreamApiKey, admin.token, config.metrics.token, ...exportHeaders].filter((s): s is string => s !== null);
  const { logger, access: accessLog } = createLogging({ level: config.logLevel, destination: overrides.logDestination, secrets });
  for (const warning of config.warnings) logger.warn(warning);
  // The metrics come later (they need the catalogue); until then the database's state is read at registration.
  let reportStoreUp: (up: boolean) => void = () => {};
  const stores = await openStores(config.databaseUrl, {
    max: config.database.poolMax,
    statementTimeoutMs: config.database.timeoutMs,
    connectTimeoutMs: config.database.timeoutMs,
    onIdleError: (err) => logger.warn({ err: errorMessage(err) }, 'an idle database connection failed; it is replaced on next use'),
    onListenerError: (err) => logger.warn({ err: errorMessage(err) }, 'the key change listener lost its connection; polling continues'),
    onUpChange: (up) => {
      reportStoreUp(up);
      if (up) logger.info('the database answers again');
      else logger.error('the database does not answer; known keys are served, usage is kept, unverifiable keys get 503');
    },
  });
  const keys = new KeyCache(stores.keys, {
    refreshMs: config.keyRefreshMs,
    storeTimeoutMs: config.database.timeoutMs,
    // A customer without limits of its own in the store gets GATEWAY_CUSTOMER_LIMITS'.
    customerDefaults: customerLimitsLookup(config.rateLimits.customers),
    lastUsedWriter: stores.writes.lastUse,
    onError: (err, during) => logger.error({ during, err: errorMessage(err) }, 'key cache background work failed; serving the keys it has'),
  });
  await keys.start();
  // Another instance's key change is read at once, not at the next poll.
  if (stores.shared) await stores.watchKeyChanges(() => void keys.refresh().catch(() => {}));
  const usage = new UsageWriter(stores.writes.usage, {
    flushMs: config.usageFlushMs,
    rowsPerWrite: stores.writes.rowsPerWrite,
    // Also replays what an earlier process left there. Without a writable data directory rows are only buffered.
    spill: await UsageSpill.open({ dir: config.dataDir, maxRows: config.usageSpill.maxRows }).catch((err: unknown) => {
      logger.warn({ err: errorMessage(err) }, 'no usage spill file in the data directory; usage the database cannot take is kept in memory only');
      return undefined;
    }),
    spillAfterMs: config.usageSpill.afterMs,
    onError: (err) => logger.error({ err: errorMessage(err), pending: usage.pending }, 'usage write failed; the batch is kept and retried'),
  });

  const ownSimulator = config.upstreamBaseUrl === null && overrides.simulator === undefined;
  const simulator = overrides.simulator ?? (ownSimulator ? await startSimulator({ port: 0, host: '127.0.0.1' }) : null);
  const baseUrl = config.upstreamBaseUrl ?? simulator!.url;
  const upstreamKey = config.upstreamApiKey ?? (config.upstreamBaseUrl === null ? 'simulator' : null);
  const modelsFile = readModelsFile(config.modelsFile);
  const fileSettings = modelsFileSettings(modelsFile);
  const providers = await buildProviders(
    { entries: modelsFile?.providers, path: modelsFile?.path ?? 'GATEWAY_MODELS_FILE', env: config.environment, implicit: { baseUrl, apiKey: upstreamKey } },
    {
      connections: config.upstreamConnections,
      connectTimeoutMs: config.timeouts.upstreamConnectMs,
      headersTimeoutMs: config.timeouts.upstreamHeadersMs,
      bodyTimeoutMs: config.timeouts.streamIdleMs,
    },
  );
  const translators = new Translators([messagesToAnthropic, chatToAnthropic, responsesToAnthropic]);
  translators.check(['messages', 'chat', 'responses'], providers);
  const catalogue = new Catalogue({
    defaults: DEFAULT_MODELS,
    configured: fileSettings.models,
    unpricedPrices: fileSettings.unpricedPrices,
    // The live list is the first provider's, when its type has one.
    fetchLive: providers[0]!.listModels,
    refreshMs: config.modelsRefreshMs,
    onRefreshError: (err) => logger.warn({ err: errorMessage(err) }, 'models list refresh failed; keeping the last known list'),
  });
  await catalogue.start();
  const ownMetrics = createMetrics({ knownModels: () => catalogue.ids() });
  const metrics = clusterWorker ? clusterWideMetrics(ownMetrics) : ownMetrics;
  const tracing = config.tracing === null ? NO_TRACING : await startTracing(config.tracing, metrics, logger);
  reportStoreUp = observeStores(metrics, stores, usage);
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
  const router = new Router(routes, new RetryPolicy(config.retry), catalogue, {
    retry: (reason) => metrics.retry(reason),
    upstreamError: (kind) => metrics.upstreamError(kind),
    fallback: (from, to, status) => logger.info({ from, to, upstreamStatus: status }, 'falling back to another model'),
    attempted: (route, result) => metrics.routeAttempt(route.name, route.provider.id, attemptOutcome(result)),
  });
  metrics.watchRoutes(() => routeReadings(routes, Date.now()));
  // With Redis every instance (a cluster worker too) counts against the fleet's buckets.
  const shared = config.redisUrl === null ? null : await startSharedLimiter(config.redisUrl, config.redisPrefix, metrics, logger);
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
  const translatePool = config.translatePool.threads > 0 ? createTranslatePool(config.translatePool) : null;

  const runtime: Runtime = {
    config,
    logger,
    accessLog,
    metrics,
    tracing,
    keys,
    catalogue,
    providers,
    translators,
    routes,
    router,
    limiter,
    budgets,
    wallClock: overrides.wallClock ?? Date.now,
    authThrottle,
    fleetStore: shared?.store ?? null,
    simulated: config.upstreamBaseUrl === null,
    usage,
    stores,
    lifecycle: { draining: false, inFlight: 0 },
    translatePool,
  };

  let closing: Promise<void> | null = null;
  return {
    runtime,
    adminToken: admin.token,
    adminTokenPath: admin.path,
    stores,
    simulator,
    close() {
      // Idempotent: a signal handler and a test teardown may both ask.
      closing ??= (async () => {
        catalogue.close();
        await keys.close();
        await usage.close();
        await Promise.all(providers.map((p) => p.client.close().catch(() => p.client.destroy())));
        await translatePool?.close();
        // Spend counted here while Redis did not answer goes to the fleet's counters if it answers now.
        await budgets.flush?.();
        await shared?.close();
        if (ownSimulator) await simulator?.close();
        await stores.close();
        // The spans of the last requests go out too, within the grace period.
        await tracing.shutdown(config.timeouts.shutdownGraceMs);
        logger.flush();
      })();
      return closing;
    },
  };
}

/**
 * OpenTelemetry tracing: its SDK is imported here, at start-up, and only when tracing is on, so a
 * gateway without an OTLP endpoint never loads it (observability/tracing/request-trace.ts).
 */
async function startTracing(settings: TracingSettings, metrics: GatewayMetrics, logger: Logger): Promise<Tracing> {
  const otel = await import('../../observability/tracing/otel/start-tracing.js');
  const tracing = otel.startTracing(settings, {
    dropped: (reason, spans) => metrics.traceSpansDropped(reason, spans),
    exportFailing: (errorName) => logger.warn({ error: errorName, endpoint: settings.exporter.url }, 'trace export failed; spans are dropped and counted until the collector takes them again'),
  });
  logger.info({ endpoint: settings.exporter.url, protocol: settings.exporter.protocol, sampler: settings.sampler.name }, 'tracing on (OpenTelemetry)');
  return tracing;
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
 * Spend budgets count in Redis when there is one (fleet-wide; this instance's share of what was left
 * while Redis does not answer), else in this process; either way a period's counter starts from the
 * usage store's rollup. A worker of serve --workers N without Redis counts alone (docs/spend.md).
 */
function budgetLedger(stores: Stores, shared: SharedLimiter | null, logger: Logger): BudgetLedger {
  const seed = seedFromUsage(stores.usage);
  if (shared === null) return new MemoryBudgetLedger(seed);
  const local = new MemoryBudgetLedger(seed, { share: () => shared.instances.liveInstances });
  return new FallbackBudgetLedger(new RedisBudgetLedger(shared.store.redis, shared.store.prefix, seed), shared.store.redis, local, (event, reason) => {
    if (event === 'fallback') logger.warn({ reason }, 'Redis unreachable: spend budgets count in this instance with its share of what was left');
    else logger.info('Redis answers again: spend budgets are counted by the fleet');
  });
}

