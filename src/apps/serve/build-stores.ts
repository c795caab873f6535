// The composition root's stores: the database (keys, usage, dashboard users and sessions), the key
// cache in front of it and the batched usage writer with its spill file.
import type { Logger } from 'pino';
import type { GatewayConfig } from '../../config/config.js';
import { KeyCache } from '../../keys/key-cache.js';
import { errorMessage } from '../../lib/error-message.js';
import { UsageSpill } from '../../metering/usage-spill.js';
import { UsageWriter } from '../../metering/usage-writer.js';
import { customerLimitsLookup } from '../../policy/ratelimit/request-limits.js';
import { openStores } from '../../stores/open-stores.js';
import type { Stores } from '../../stores/stores.js';

export interface BuiltStores {
  stores: Stores;
  keys: KeyCache;
  usage: UsageWriter;
}

/** `onStoreUp`: the database's state changes (the metrics are built later and report them). */
export async function buildStores(config: GatewayConfig, logger: Logger, onStoreUp: (up: boolean) => void): Promise<BuiltStores> {
  const stores = await openStores(config.databaseUrl, {
    max: config.database.poolMax,
    statementTimeoutMs: config.database.timeoutMs,
    connectTimeoutMs: config.database.timeoutMs,
    onIdleError: (err) => logger.warn({ err: errorMessage(err) }, 'an idle database connection failed; it is replaced on next use'),
    onListenerError: (err) => logger.warn({ err: errorMessage(err) }, 'the key change listener lost its connection; polling continues'),
    onUpChange: (up) => {
      onStoreUp(up);
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
  return { stores, keys, usage };
}
