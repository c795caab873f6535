// Leases against the machine's Redis: a busy key is decided mostly without scripts, and still nothing
// is created or lost: with the bucket clock pinned (no refill), what the instances accepted plus what
// Redis has left is the limit exactly once every lease has gone back, for requests and for tokens
// (settles included). A quiet key, a small limit or an edited limit goes to Redis as before.
import t, { type Test } from 'tap';
import { ACQUIRE_SCRIPT } from '../../../../../src/policy/ratelimit/redis/scripts.js';
import type { LuaScript } from '../../../../../src/stores/redis/lua-script.js';
import { RedisRateLimiter, type RedisRateLimiterOptions } from '../../../../../src/policy/ratelimit/redis/redis-limiter.js';
import { LEASE_TTL_MS } from '../../../../../src/policy/ratelimit/redis/lease.js';
import type { LimitDecision, LimitRequest } from '../../../../../src/policy/ratelimit/limiter.js';
import { guardedRedisFor, type AdminClient } from './redis-test-env.js';

const NOW = 1_000_000;

async function harness(t: Test) {
  const { admin, prefix, redis } = await guardedRedisFor(t);
  const scripts = { acquires: 0, calls: 0 };
  const counted = {
    evalScript: (script: LuaScript, keys: string[], args: string[]) => {
      scripts.calls++;
      if (script === ACQUIRE_SCRIPT) scripts.acquires += Number(args[1]);
      return redis.evalScript(script, keys, args);
    },
  };
  const limiter = (options: Partial<RedisRateLimiterOptions> = {}) => new RedisRateLimiter(counted, { prefix, now: () => NOW, ...options });
  return { admin, prefix, scripts, limiter };
}

const decide = async (d: LimitDecision | Promise<LimitDecision>) => (d instanceof Promise ? await d : d);

/** A bucket's level as Redis holds it (a missing entry is full). */
async function level(admin: AdminClient, entry: string, field: 'rl' | 'tl', full: number): Promise<number> {
  const v = await admin.hGet(entry, field);
  return v === null || v === undefined ? full : Number(v);
}

t.test('a busy key: most requests decided from leases, the limit kept exactly across two instances', async (t) => {
  const { admin, prefix, scripts, limiter } = await harness(t);
  const live = { liveInstances: 2 };
  const instances = [limiter({ instances: live }), limiter({ instances: live })];
  const rpm = 100_000;
  const tpm = 10_000_000;
  const r: LimitRequest = { keyId: 'busy', customerId: 'c', keyLimits: { rpm, tpm }, customerLimits: { rpm: null, tpm: 50_000_000 }, tokens: 100 };
  let accepted = 0;
  let used = 0;
  // Bursts on both instances, each request settled soon with what it used (some more than reserved).
  for (let round = 0; round < 60; round++) {
    await Promise.all(
      instances.map(async (limiter, i) => {
        const decisions = await Promise.all(Array.from({ length: 40 }, () => decide(limiter.acquire(r))));
        for (const d of decisions) {
          if (!d.allowed) continue;
          accepted++;
          const spent = (round * 7 + i * 13 + accepted) % 150;
          used += spent;
          limiter.settle(d.reservation, spent);
        }
      }),
    );
  }
  t.equal(accepted, 4800, 'far below the limit: all accepted');
  t.ok(scripts.acquires < accepted / 4, `scripts decided ${scripts.acquires} of ${accepted} acquires; leases the rest`);
  for (const limiter of instances) await limiter.flushSettles();
  const key = `${prefix}{c}:key:busy`;
  const customer = `${prefix}{c}:customer`;
  t.equal(await level(admin, key, 'rl', rpm), rpm - accepted, 'requests: what Redis has left plus what was accepted is the limit');
  t.equal(await level(admin, key, 'tl', tpm), tpm - used, "the key's tokens: exactly what the requests used");
  t.equal(await level(admin, customer, 'tl', 50_000_000), 50_000_000 - used, "the customer's tokens too");
});

t.test('one instance: the remaining count in the headers goes down by one a request, leased or not', async (t) => {
  const { scripts, limiter } = await harness(t);
  const l = limiter();
  const r: LimitRequest = { keyId: 'counted', customerId: 'c', keyLimits: { rpm: 50_000, tpm: null }, customerLimits: null, tokens: 1 };
  const remaining: number[] = [];
  for (let round = 0; round < 30; round++) {
    const decisions = await Promise.all(Array.from({ length: 20 }, () => decide(l.acquire(r))));
    for (const d of decisions) remaining.push(d.status.requests!.remaining);
  }
  t.ok(scripts.acquires < 300, `${scripts.acquires} of 600 went to Redis`);
  t.same(remaining, Array.from({ length: 600 }, (_, i) => 50_000 - 1 - i));
  await l.flushSettles();
});

t.test('a key asked for steadily, one request at a time, is decided mostly from leases', async (t) => {
  const { admin, prefix, scripts, limiter } = await harness(t);
  let clock = 0;
  const l = limiter({ leaseClock: () => clock });
  const rpm = 100_000;
  const r: LimitRequest = { keyId: 'steady', customerId: 'c', keyLimits: { rpm, tpm: null }, customerLimits: null, tokens: 1 };
  // 200 a second, each decided before the next comes: never two acquires waiting for one script.
  let accepted = 0;
  for (let i = 0; i < 400; i++) {
    clock += 5;
    if ((await decide(l.acquire(r))).allowed) accepted++;
  }
  t.equal(accepted, 400);
  t.ok(scripts.acquires < 400 / 10, `${scripts.acquires} of 400 went to Redis; leases decided the rest`);
  await l.flushSettles();
  t.equal(await level(admin, `${prefix}{c}:key:steady`, 'rl', rpm), rpm - accepted, 'what Redis has left plus what was accepted is the limit');
});

t.test('never more than the limit: instances racing for the last requests of a bucket', async (t) => {
  const { admin, prefix, limiter } = await harness(t);
  const live = { liveInstances: 3 };
  const instances = [limiter({ instances: live }), limiter({ instances: live }), limiter({ instances: live })];
  const rpm = 2000;
  const r: LimitRequest = { keyId: 'racing', customerId: 'c', keyLimits: { rpm, tpm: null }, customerLimits: null, tokens: 10 };
  let accepted = 0;
  let refused = 0;
  for (let round = 0; round < 40; round++) {
    await Promise.all(
      instances.map(async (limiter) => {
        const decisions = await Promise.all(Array.from({ length: 25 }, () => decide(limiter.acquire(r))));
        for (const d of decisions) {
          if (d.allowed) accepted++;
          else refused++;
        }
      }),
    );
  }
  t.equal(accepted + refused, 3000);
  t.ok(accepted <= rpm, `accepted ${accepted} of a limit of ${rpm}`);
  for (const limiter of instances) await limiter.flushSettles();
  t.equal(await level(admin, `${prefix}{c}:key:racing`, 'rl', rpm), rpm - accepted, 'every request accepted was paid for in Redis; leases gave back the rest');
  t.ok(accepted >= rpm - 3, `leases held back almost nothing at the end: ${accepted} accepted`);
});

t.test('a quiet key, a small limit and an edited limit all go to Redis every time', async (t) => {
  const { scripts, limiter } = await harness(t);
  let clock = 0;
  const quiet = limiter({ leaseClock: () => clock });
  const q: LimitRequest = { keyId: 'quiet', customerId: 'c', keyLimits: { rpm: 1_000_000, tpm: null }, customerLimits: null, tokens: 1 };
  for (let i = 0; i < 5; i++) {
    clock += LEASE_TTL_MS;
    await decide(quiet.acquire(q));
  }
  t.equal(scripts.calls, 5, 'a key asked for once a lease life: one script each, no lease');

  const small = limiter({ instances: { liveInstances: 3 } });
  const s: LimitRequest = { keyId: 'small', customerId: 'c', keyLimits: { rpm: 30, tpm: null }, customerLimits: null, tokens: 1 };
  const before = scripts.acquires;
  for (let i = 0; i < 10; i++) await decide(small.acquire(s));
  t.equal(scripts.acquires - before, 10, '30 rpm over 3 instances: too small to lease from');

  const edited = limiter();
  const e: LimitRequest = { keyId: 'edited', customerId: 'c', keyLimits: { rpm: 100_000, tpm: null }, customerLimits: null, tokens: 1 };
  for (let burst = 0; burst < 3; burst++) await Promise.all(Array.from({ length: 10 }, () => decide(edited.acquire(e))));
  const leased = scripts.acquires;
  t.ok(leased - before - 10 < 30, `the busy key took a lease: ${leased - before - 10} of 30 went to Redis`);
  const lowered = { ...e, keyLimits: { rpm: 5, tpm: null } };
  const d = await decide(edited.acquire(lowered));
  t.equal(scripts.acquires, leased + 1, 'a request under the edited limit goes to Redis');
  t.equal(d.status.requests?.limit, 5, 'and is decided by it');
  await Promise.all([quiet, small, edited].map((l) => l.flushSettles()));
});

t.test('a lease nobody uses goes back after its life', async (t) => {
  const { admin, prefix, limiter } = await harness(t);
  const l = limiter();
  const r: LimitRequest = { keyId: 'idle', customerId: 'c', keyLimits: { rpm: 100_000, tpm: null }, customerLimits: null, tokens: 1 };
  for (let burst = 0; burst < 2; burst++) await Promise.all(Array.from({ length: 10 }, () => decide(l.acquire(r))));
  const entry = `${prefix}{c}:key:idle`;
  const held = 100_000 - 20 - (await level(admin, entry, 'rl', 100_000));
  t.ok(held > 0, `a lease of ${held} requests is held`);
  await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_TTL_MS + 200));
  t.equal(await level(admin, entry, 'rl', 100_000), 100_000 - 20, 'given back: only the 20 requests are gone');
  await l.flushSettles();
});

t.test("a bucket does not refill into what leases hold; a dead instance's lease stops counting two generations on", async (t) => {
  const { limiter } = await harness(t);
  let clock = 5_000_000;
  // Its lease clock stands still: the lease never ends nor goes back, as if the instance had died.
  const holder = limiter({ now: () => clock, leaseClock: () => 0 });
  const other = limiter({ now: () => clock, leases: false });
  const r: LimitRequest = { keyId: 'held', customerId: 'c', keyLimits: { rpm: 60_000, tpm: null }, customerLimits: null, tokens: 1 };
  // Two bursts of 10: the second's script finds the key 20 acquires busy and takes a lease of 40.
  for (let burst = 0; burst < 2; burst++) await Promise.all(Array.from({ length: 10 }, () => decide(holder.acquire(r))));
  const before = await decide(other.acquire(r));
  t.equal(before.status.requests?.remaining, 60_000 - 20 - 40 - 1, '20 accepted, a lease of 40 held, and this one');
  clock += 500; // 500 requests' worth of refill, more than the bucket lacks
  const during = await decide(other.acquire(r));
  t.equal(during.status.requests?.remaining, 60_000 - 40 - 1, 'refilled up to the capacity less the 40 the lease holds, not to the capacity');
  clock += 2000;
  const after = await decide(other.acquire(r));
  t.equal(after.status.requests?.remaining, 60_000 - 1, 'two generations on the lease no longer counts: full again');
});
