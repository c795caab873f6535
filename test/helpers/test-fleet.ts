// A fleet (fleet.ts) on a database and a Redis key prefix of its own, both removed when the test ends,
// after the fleet has stopped: what a fleet test file starts once and shares between its subtests.
import type { Test } from 'tap';
import { adminClient, deleteKeys, REDIS_URL, testPrefix } from '../unit/policy/ratelimit/redis/redis-test-env.js';
import type { AdminClient } from '../unit/policy/ratelimit/redis/redis-test-env.js';
import { startFleet } from './fleet.js';
import type { Fleet, FleetOptions } from './fleet.js';
import { createTestDatabase } from './postgres.js';

export interface TestFleet extends Fleet {
  readonly databaseUrl: string;
  readonly redisPrefix: string;
  /** A plain Redis client on the same server, for looking at the fleet's entries. */
  readonly redis: AdminClient;
}

/** Teardowns run last registered first (tap's order), so the fleet stops before its database and keys go. */
export async function startTestFleet(t: Pick<Test, 'teardown'>, opts: Partial<FleetOptions> = {}): Promise<TestFleet> {
  const databaseUrl = await createTestDatabase(t);
  const redisPrefix = testPrefix();
  const redis = await adminClient();
  t.teardown(async () => {
    await deleteKeys(redis, redisPrefix);
    await redis.close();
  });
  const fleet = await startFleet({ databaseUrl, redisUrl: REDIS_URL, redisPrefix, ...opts });
  t.teardown(() => fleet.stop());
  return Object.assign(fleet, { databaseUrl, redisPrefix, redis });
}
