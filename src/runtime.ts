// The long-lived services a gateway's stages share, built once per process (see build-runtime.ts).
import type { Logger } from 'pino';
import type { Catalogue } from './catalog/catalogue.js';
import type { GatewayConfig } from './config/config.js';
import type { KeyCache } from './keys/key-cache.js';
import type { UsageWriter } from './metering/usage-writer.js';
import type { GatewayMetrics } from './observability/metrics.js';
import type { UpstreamClient } from './upstream/client.js';
import type { TranslatePool } from './workers/pool.js';

export interface Lifecycle {
  draining: boolean;
  inFlight: number;
}

export interface Runtime {
  readonly config: GatewayConfig;
  readonly logger: Logger;
  readonly metrics: GatewayMetrics;
  readonly keys: KeyCache;
  readonly catalogue: Catalogue;
  readonly upstream: UpstreamClient;
  /** The upstream credential (null when the upstream needs none). */
  readonly upstreamKey: string | null;
  /** True when answers come from the built-in simulator: every response says so. */
  readonly simulated: boolean;
  readonly usage: UsageWriter;
  /** Answers whether the database can be reached (for /readyz). */
  readonly databaseReady: () => boolean;
  readonly lifecycle: Lifecycle;
  /** Worker threads for large chat bodies; null when translation runs inline only. */
  readonly translatePool: TranslatePool | null;
  /**
   * True in a worker of `serve --workers N`: rate limits and failed-authentication counts are the
   * cluster primary's, shared by every worker (src/cluster/limits-channel.ts).
   */
  readonly limitsInPrimary?: boolean;
}
