// Shared by the Redis tests: where Redis is, a key prefix of this run's own, and the cleanup.
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import type { Test } from 'tap';
import { GuardedRedis } from '../../../../../src/stores/redis/guarded-redis.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testPrefix(): string {
  return `mgw-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
}

function newAdminClient() {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  client.on('error', () => {});
  return client;
}

export type AdminClient = ReturnType<typeof newAdminClient>;

/** A plain client for setup and cleanup; fails the test clearly when Redis is not there. */
export async function adminClient(): Promise<AdminClient> {
  const client = newAdminClient();
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `these tests need a Redis server at REDIS_URL (default redis://127.0.0.1:6379, now ${REDIS_URL}): ${String(err)}`,
    );
  }
  return client;
}

export async function deleteKeys(client: AdminClient, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) deleted += await client.del(keys);
  }
  return deleted;
}

/**
 * The command deadline of the tests' Redis clients. The gateway's 100 ms was passed by round trips on a
 * loaded machine (load 20), failing tests about what the scripts decide; the deadline itself is tested
 * through a relay in redis-fallback.test.ts. Tests that cut Redis wait this long for each failed call.
 */
export const TEST_COMMAND_TIMEOUT_MS = 1000;

/** A started GuardedRedis, an admin client and a prefix of the test's own, all cleaned up when the test ends. */
export async function guardedRedisFor(t: Test): Promise<{ admin: AdminClient; prefix: string; redis: GuardedRedis }> {
  const admin = await adminClient();
  const prefix = testPrefix();
  const redis = new GuardedRedis({ url: REDIS_URL, commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS });
  t.ok(await redis.start(), `connects to ${REDIS_URL}`);
  t.teardown(async () => {
    await redis.close();
    await deleteKeys(admin, prefix);
    await admin.close();
  });
  return { admin, prefix, redis };
}
