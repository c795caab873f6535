// The fleet-wide rate limiter as one gateway instance runs it: Redis through the guarded client, this
// instance announced in the heartbeat set, and its own share of every limit while Redis is not
// answering. Started by the composition root when REDIS_URL is set; stopped with the instance.
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../../../observability/metrics.js';
import type { RateLimiter } from '../limiter.js';
import { FallbackLimiter, type LiveInstances } from './fallback-limiter.js';
import { GuardedRedis } from '../../../stores/redis/guarded-redis.js';
import type { FleetStore } from '../../../stores/redis/fleet-store.js';
import { InstanceRegistry } from '../../../stores/redis/instance-registry.js';
import { RedisRateLimiter } from './redis-limiter.js';

export interface SharedLimiter {
  readonly limiter: RateLimiter;
  readonly store: FleetStore;
  /** The live instances this one last counted (the spend budgets' fallback shares by it too). */
  readonly instances: LiveInstances;
  close(): Promise<void>;
}

/** `prefix` starts every key written (buckets and the instance set). */
export async function startSharedLimiter(url: string, prefix: string, metrics: GatewayMetrics, logger: Logger): Promise<SharedLimiter> {
  const redis = new GuardedRedis({ url, onUpChange: (up) => metrics.sharedStoreUp('redis', up) });
  // An instance may start while Redis is down: it serves with its share and the probe keeps trying.
  if (!(await redis.start())) logger.warn('Redis is not answering at start; rate limits use this instance\'s share until it does');
  // The client reports changes only; the state it started in is set here.
  metrics.sharedStoreUp('redis', redis.up);
  const registry = new InstanceRegistry(redis, { prefix });
  await registry.start();
  const shared = new RedisRateLimiter(redis, { prefix, instances: registry });
  const limiter = new FallbackLimiter(shared, redis, registry, {
    onFallbackDecision: () => metrics.rateLimitFallback(),
    log: (event, detail) => {
      if (event === 'fallback') logger.warn(detail, 'Redis unreachable: rate limits fall back to this instance\'s share');
      else logger.info(detail, 'Redis answers again: rate limits are shared by the fleet');
    },
  });
  return {
    limiter,
    store: { redis, prefix },
    instances: registry,
    async close() {
      // The last settles first: they would otherwise wait for acquires that will not come.
      await shared.flushSettles();
      // Then leave the instance set, so the others' shares grow at once.
      await registry.stop();
      await redis.close();
    },
  };
}
