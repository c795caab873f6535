// Before forking: the work that must happen once per data folder, not once per worker (creating the
// admin token file, applying database migrations), so workers never race each other to do it.
import { adminTokenOf } from '../../config/admin-token.js';
import type { GatewayConfig } from '../../config/config.js';
import { openStores } from '../../stores/open-stores.js';
import { createLogger } from '../../observability/logger.js';
import { runPrimary } from './primary.js';

export async function startClusterPrimary(config: GatewayConfig, workers: number): Promise<number> {
  const admin = adminTokenOf(config);
  await (await openStores(config.databaseUrl)).close();
  const secrets = [config.upstreamApiKey, admin.token, config.metrics.token].filter((s): s is string => s !== null);
  const logger = createLogger({ level: config.logLevel, secrets });
  logger.info({ workers }, 'starting gateway workers');
  // A worker may first wait out its drain delay (server.ts, drain) before its grace begins.
  return runPrimary({ workers, graceMs: config.timeouts.drainDelayMs + config.timeouts.shutdownGraceMs, logger });
}
