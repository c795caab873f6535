// A settle only changes token buckets: for a key and customer without a tpm limit it costs no round
// trip; with one it is one script, and the debt it records is seen by the next acquire.
import t from 'tap';
import { GuardedRedis } from '../../../../../src/policy/ratelimit/redis/guarded-redis.js';
import type { LuaScript } from '../../../../../src/policy/ratelimit/redis/scripts.js';
import { RedisRateLimiter } from '../../../../../src/policy/ratelimit/redis/redis-limiter.js';
import { adminClient, deleteKeys, REDIS_URL, testPrefix } from './redis-test-env.js';

t.test('settle: no script without a tpm limit, one with it', async (t) => {
  const admin = await adminClient();
  const prefix = testPrefix();
  const redis = new GuardedRedis({ url: REDIS_URL });
  t.ok(await redis.start());
  t.teardown(async () => {
    await redis.close();
    await deleteKeys(admin, prefix);
    await admin.close();
  });
  const scripts: string[] = [];
  const counted = { evalScript: (script: LuaScript, keys: string[], args: string[]) => (scripts.push(script.sha1), redis.evalScript(script, keys, args)) };
  const limiter = new RedisRateLimiter(counted, { prefix });

  const rpmOnly = await limiter.acquire({ keyId: 'k1', customerId: 'c1', tokens: 100, keyLimits: { rpm: 10, tpm: null }, customerLimits: { rpm: 50, tpm: null } });
  t.ok(rpmOnly.allowed);
  if (!rpmOnly.allowed) return;
  t.equal(scripts.length, 1, 'the acquire is one script');
  await limiter.settle(rpmOnly.reservation, 80);
  t.equal(scripts.length, 1, 'a settle without token buckets sends nothing');

  const withTpm = await limiter.acquire({ keyId: 'k2', customerId: 'c1', tokens: 100, keyLimits: { rpm: 10, tpm: 1000 }, customerLimits: null });
  t.ok(withTpm.allowed);
  if (!withTpm.allowed) return;
  t.equal(withTpm.status.tokens?.remaining, 900, 'the reservation took max_tokens');
  await limiter.settle(withTpm.reservation, 400);
  t.equal(scripts.length, 3, 'a settle with a token bucket is one script');
  const next = await limiter.acquire({ keyId: 'k2', customerId: 'c1', tokens: 100, keyLimits: { rpm: 10, tpm: 1000 }, customerLimits: null });
  t.ok(next.allowed);
  t.ok(next.status.tokens!.remaining <= 500 && next.status.tokens!.remaining >= 499, `the overrun was recorded (remaining ${next.status.tokens?.remaining})`);
});
