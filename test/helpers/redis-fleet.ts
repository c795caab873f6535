// Gateway instances sharing one key store (the first one's SQLite file) and one Redis under a key prefix
// of the test's own, removed at the end: a fleet in one process, for the tests of what Redis shares.
import { join } from 'node:path';
import type { Test } from 'tap';
import { adminClient, deleteKeys, REDIS_URL, testPrefix, type AdminClient } from '../unit/policy/ratelimit/redis/redis-test-env.js';
import { startHarness, type Harness } from './harness.js';

export interface RedisFleet {
  /** A plain client for looking into Redis. */
  redis: AdminClient;
  prefix: string;
  instances: Harness[];
}

/** `env`: more settings every instance gets (a models file, say). */
export async function startRedisFleet(t: Test, size: number, env: Record<string, string> = {}): Promise<RedisFleet> {
  const prefix = testPrefix();
  const redis = await adminClient();
  t.teardown(async () => {
    await deleteKeys(redis, prefix);
    await redis.close();
  });
  const shared = { ...env, REDIS_URL, GATEWAY_REDIS_PREFIX: prefix };
  const first = await startHarness({ env: shared });
  t.teardown(() => first.close());
  const instances = [first];
  while (instances.length < size) {
    // The others read the first one's key store, as instances on one database do.
    const h = await startHarness({ env: { ...shared, DATABASE_URL: `file:${join(first.dataDir, 'gateway.db')}` } });
    t.teardown(() => h.close());
    instances.push(h);
  }
  return { redis, prefix, instances };
}
