// Builds the long-lived services of one gateway process from its configuration, and tears them
// down in the right order (stop taking work → flush usage → close the database).
import type { Writable } from 'node:stream';
import { ensureAdminToken } from './admin-token.js';
import { Catalogue } from './catalog/catalogue.js';
import { fetchLiveModels } from './catalog/live-models.js';
import { loadModelsFile } from './catalog/load-models-file.js';
import { DEFAULT_MODELS } from './catalog/model.js';
import type { GatewayConfig } from './config/config.js';
import { openDatabase } from './db/open.js';
import type { Db } from './db/open.js';
import { KeyCache } from './keys/key-cache.js';
import { SqliteKeyStore } from './keys/sqlite-key-store.js';
import { SqliteUsageStore } from './metering/sqlite-usage-store.js';
import { ROWS_PER_HANDOVER, ThreadedUsageStore } from './metering/threaded-usage-store.js';
import { UsageWriter } from './metering/usage-writer.js';
import { createLogger } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import type { Runtime } from './runtime.js';
import { startSimulator } from './simulator/index.js';
import type { Simulator } from './simulator/index.js';
import { UpstreamClient } from './upstream/client.js';
import { createTranslatePool } from './workers/pool.js';

export interface BuiltRuntime {
  runtime: Runtime;
  adminToken: string;
  adminTokenPath: string | null;
  keyStore: SqliteKeyStore;
  usageStore: SqliteUsageStore;
  /** The open database, for components with their own tables (the dashboard's users and sessions). */
  db: Db;
  simulator: Simulator | null;
  close(): Promise<void>;
}

export interface RuntimeOverrides {
  logDestination?: Writable;
  /** Use this simulator instead of starting one (tests that inspect or fault the upstream). */
  simulator?: Simulator;
}

export async function buildRuntime(config: GatewayConfig, overrides: RuntimeOverrides = {}): Promise<BuiltRuntime> {
  const admin = ensureAdminToken(config.adminToken, config.dataDir);
  const secrets = [config.upstreamApiKey, admin.token, config.metrics.token].filter((s): s is string => s !== null);
  const logger = createLogger({ level: config.logLevel, destination: overrides.logDestination, secrets });
  const db = openDatabase(config.databaseUrl);
  const keyStore = new SqliteKeyStore(db);
  const usageStore = new SqliteUsageStore(db);
  // A database file takes its usage rows and the keys' last-use times on a thread of its own, so the
  // event loop never waits for a write lock; one in memory cannot be shared with a thread.
  const usageWrites = db.memory ? null : new ThreadedUsageStore(config.databaseUrl, usageStore);
  const keys = new KeyCache(keyStore, {
    refreshMs: config.keyRefreshMs,
    lastUsedWriter: usageWrites ?? keyStore,
    onError: (err, during) => logger.error({ during, err: errorMessage(err) }, 'key cache background work failed; serving the keys it has'),
  });
  await keys.start();
  const usage = new UsageWriter(usageWrites ?? usageStore, {
    flushMs: config.usageFlushMs,
    rowsPerWrite: usageWrites === null ? undefined : ROWS_PER_HANDOVER,
    onError: (err) => logger.error({ err: errorMessage(err), pending: usage.pending }, 'usage write failed; the batch is kept and retried'),
  });

  const ownSimulator = config.upstreamBaseUrl === null && overrides.simulator === undefined;
  const simulator = overrides.simulator ?? (ownSimulator ? await startSimulator({ port: 0, host: '127.0.0.1' }) : null);
  const baseUrl = config.upstreamBaseUrl ?? simulator!.url;
  const upstreamKey = config.upstreamApiKey ?? (config.upstreamBaseUrl === null ? 'simulator' : null);
  const upstream = new UpstreamClient(baseUrl, {
    connections: config.upstreamConnections,
    connectTimeoutMs: config.timeouts.upstreamConnectMs,
    headersTimeoutMs: config.timeouts.upstreamHeadersMs,
    bodyTimeoutMs: config.timeouts.streamIdleMs,
  });
  const catalogue = new Catalogue({
    defaults: DEFAULT_MODELS,
    configured: loadModelsFile(config.modelsFile),
    fetchLive: () => fetchLiveModels(upstream, upstreamKey),
    refreshMs: config.modelsRefreshMs,
    onRefreshError: (err) => logger.warn({ err: errorMessage(err) }, 'models list refresh failed; keeping the last known list'),
  });
  await catalogue.start();
  const metrics = createMetrics({ knownModels: () => catalogue.ids() });
  const translatePool = config.translatePool.threads > 0 ? createTranslatePool(config.translatePool) : null;

  const runtime: Runtime = {
    config,
    logger,
    metrics,
    keys,
    catalogue,
    upstream,
    upstreamKey,
    simulated: config.upstreamBaseUrl === null,
    usage,
    databaseReady: () => {
      try {
        db.prepare('SELECT 1').get();
        return true;
      } catch {
        return false;
      }
    },
    lifecycle: { draining: false, inFlight: 0 },
    translatePool,
  };

  let closing: Promise<void> | null = null;
  return {
    runtime,
    adminToken: admin.token,
    adminTokenPath: admin.path,
    keyStore,
    usageStore,
    db,
    simulator,
    close() {
      // Idempotent: a signal handler and a test teardown may both ask.
      closing ??= (async () => {
        catalogue.close();
        await keys.close();
        await usage.close();
        await usageWrites?.close();
        await upstream.close().catch(() => upstream.destroy());
        await translatePool?.close();
        if (ownSimulator) await simulator?.close();
        db.close();
        logger.flush();
      })();
      return closing;
    },
  };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
