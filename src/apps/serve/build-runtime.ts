// The composition root: every long-lived service of one gateway process is built here from the
// configuration, once, and handed to what uses it through the Runtime; one file per concern builds
// its part (build-observability.ts, build-stores.ts, build-upstream.ts, build-policy.ts; the dashboard's in build-admin.ts, through mounted-routes.ts). Also tears
// them down in the right order (stop taking work → flush usage → close the database).
import type { Writable } from 'node:stream';
import { adminTokenOf } from '../../config/admin-token.js';
import type { GatewayConfig } from '../../config/config.js';
import type { Runtime } from '../../gateway/runtime.js';
import { createTranslatePool } from '../../gateway/offload/pool.js';
import { AuditRetention } from '../../admin/audit/audit-retention.js';
import { errorMessage } from '../../lib/error-message.js';
import { observeStores } from '../../stores/store-metrics.js';
import type { Stores } from '../../stores/stores.js';
import type { Simulator } from '../simulator/index.js';
import { buildLogging, buildMetricsAndTracing } from './build-observability.js';
import { buildPolicy } from './build-policy.js';
import { buildStores } from './build-stores.js';
import { buildUpstream } from './build-upstream.js';

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
  const { logger, access: accessLog } = buildLogging(config, admin.token, overrides.logDestination);
  // The metrics come later (they need the catalogue); until then the database's state is read at registration.
  let reportStoreUp: (up: boolean) => void = () => {};
  const { stores, keys, usage } = await buildStores(config, logger, (up) => reportStoreUp(up));
  // A models file the gateway refuses ends the start: what was opened so far must not keep the process alive.
  const { simulator, ownSimulator, simulated, modelsFile, fileSettings, providers, translators, catalogue } = await buildUpstream(config, overrides.simulator, logger).catch(
    async (err: unknown) => {
      await keys.close();
      await usage.close();
      await stores.close();
      throw err;
    },
  );
  const { metrics, tracing } = await buildMetricsAndTracing(config, catalogue, clusterWorker, logger);
  reportStoreUp = observeStores(metrics, stores, usage);
  const { routes, router, shared, fleetCoolDowns, limiter, authThrottle, budgets, reservationPrices } = await buildPolicy(config, {
    providers,
    catalogue,
    modelsFile,
    fileSettings,
    metrics,
    logger,
    stores,
    clusterWorker,
    wallClock: overrides.wallClock,
  });
  const translatePool = config.translatePool.threads > 0 ? createTranslatePool(config.translatePool) : null;
  const auditRetention = new AuditRetention(stores.audit, {
    days: config.auditRetentionDays,
    onPruned: (deleted) => {
      if (deleted > 0) logger.info({ deleted, retentionDays: config.auditRetentionDays }, 'audit entries past their retention deleted');
    },
    onError: (err) => logger.warn({ err: errorMessage(err) }, 'deleting audit entries past their retention failed; retried within the hour'),
  });
  auditRetention.start();

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
    reservationPrices,
    wallClock: overrides.wallClock ?? Date.now,
    authThrottle,
    fleetStore: shared?.store ?? null,
    simulated,
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
        await auditRetention.close();
        // Spend counted here while Redis did not answer goes to the fleet's counters if it answers now,
        // and this instance's budget leases go back to the others.
        await budgets.flush?.();
        await fleetCoolDowns?.close();
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
