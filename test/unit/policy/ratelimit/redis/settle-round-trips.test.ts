// A settle only changes token buckets: for a key and customer without a tpm limit it is dropped at once.
// With one it costs no round trip of its own when the key is checked again soon: the next acquire's
// script carries it and applies it before deciding. A settle no acquire picks up goes alone after the
// delay, all of one key's in one script.
import t, { type Test } from 'tap';
import type { LuaScript } from '../../../../../src/stores/redis/lua-script.js';
import { ACQUIRE_SCRIPT, SETTLE_SCRIPT } from '../../../../../src/policy/ratelimit/redis/scripts.js';
import { RedisRateLimiter } from '../../../../../src/policy/ratelimit/redis/redis-limiter.js';
import type { LimitRequest } from '../../../../../src/policy/ratelimit/limiter.js';
import { guardedRedisFor } from './redis-test-env.js';

async function harness(t: Test, settleDelayMs: number) {
  const { prefix, redis } = await guardedRedisFor(t);
  const scripts: string[] = [];
  const counted = {
    evalScript: (script: LuaScript, keys: string[], args: string[]) => {
      scripts.push(script === ACQUIRE_SCRIPT ? 'acquire' : script === SETTLE_SCRIPT ? 'settle' : script.sha1);
      return redis.evalScript(script, keys, args);
    },
  };
  return { scripts, limiter: new RedisRateLimiter(counted, { prefix, settleDelayMs }) };
}

const withTpm: LimitRequest = { keyId: 'k2', customerId: 'c1', tokens: 100, keyLimits: { rpm: 10, tpm: 1000 }, customerLimits: { rpm: null, tpm: 5000 } };

t.test('a settle without token buckets sends nothing, ever', async (t) => {
  const { scripts, limiter } = await harness(t, 5);
  const rpmOnly = await limiter.acquire({ keyId: 'k1', customerId: 'c1', tokens: 100, keyLimits: { rpm: 10, tpm: null }, customerLimits: { rpm: 50, tpm: null } });
  t.ok(rpmOnly.allowed);
  if (!rpmOnly.allowed) return;
  limiter.settle(rpmOnly.reservation, 80);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await limiter.flushSettles();
  t.same(scripts, ['acquire'], 'the acquire is the only script');
});

t.test('the next acquire of the key carries its settles: no script of their own', async (t) => {
  const { scripts, limiter } = await harness(t, 60_000);
  const first = await limiter.acquire(withTpm);
  const second = await limiter.acquire(withTpm);
  t.ok(first.allowed && second.allowed);
  if (!first.allowed || !second.allowed) return;
  t.equal(second.status.tokens?.remaining, 800, 'each reservation took max_tokens');
  limiter.settle(first.reservation, 400); // 300 more than reserved: a debt
  limiter.settle(second.reservation, 40); // 60 given back
  t.same(scripts, ['acquire', 'acquire'], 'settling sends nothing by itself');
  const next = await limiter.acquire(withTpm);
  t.same(scripts, ['acquire', 'acquire', 'acquire'], 'the two settles rode on the next acquire');
  t.ok(next.allowed);
  // 1000 - 200 reserved - 300 debt + 60 back - 100 for this one, give or take the refill of a few ms.
  const remaining = next.status.tokens!.remaining;
  t.ok(remaining >= 460 && remaining <= 462, `both settles were applied before the decision (remaining ${remaining})`);
  await limiter.flushSettles();
  t.equal(scripts.length, 3, 'nothing was left to flush');
});

t.test('settles no acquire comes for go alone after the delay, one script per key', async (t) => {
  const { scripts, limiter } = await harness(t, 20);
  const held = [await limiter.acquire(withTpm), await limiter.acquire(withTpm), await limiter.acquire({ ...withTpm, keyId: 'k3' })];
  for (const d of held) if (d.allowed) limiter.settle(d.reservation, 0);
  t.same(scripts, ['acquire', 'acquire', 'acquire']);
  const deadline = Date.now() + 2000;
  while (scripts.length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  await limiter.flushSettles();
  t.same(scripts, ['acquire', 'acquire', 'acquire', 'settle', 'settle'], 'k2\'s two settles in one script, k3\'s in another');
  const after = await limiter.acquire(withTpm);
  t.ok(after.allowed);
  const remaining = after.status.tokens!.remaining;
  // The customer gave back all three reservations; the key k2 both of its own.
  t.ok(remaining >= 900 && remaining <= 901, `the reservations came back (remaining ${remaining})`);
});

t.test('a graceful stop sends what waits without waiting for the delay', async (t) => {
  const { scripts, limiter } = await harness(t, 60_000);
  const d = await limiter.acquire(withTpm);
  if (d.allowed) limiter.settle(d.reservation, 1000);
  await limiter.flushSettles();
  t.same(scripts, ['acquire', 'settle']);
});

t.test('acquires of a key made in one turn go in one script, decided in the order made', async (t) => {
  const { scripts, limiter } = await harness(t, 60_000);
  const fiveRpm: LimitRequest = { keyId: 'k5', customerId: 'c5', tokens: 10, keyLimits: { rpm: 5, tpm: null }, customerLimits: null };
  const decisions = await Promise.all(Array.from({ length: 8 }, () => limiter.acquire(fiveRpm)));
  t.same(scripts, ['acquire'], 'eight acquires, one script');
  t.same(
    decisions.map((d) => d.allowed),
    [true, true, true, true, true, false, false, false],
    'the first five take the five requests, in order',
  );
  t.same(
    decisions.map((d) => d.status.requests?.remaining),
    [4, 3, 2, 1, 0, 0, 0, 0],
    'each decision has its own header window',
  );
});
