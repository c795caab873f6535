// The Lua token buckets against MemoryRateLimiter: the same random sequences of acquires, settles,
// limit edits and clock steps, run on both with the same clock (the scripts accept a pinned "now"
// for exactly this), must give identical decisions, waits, reservations and header windows.
// The Redis limiter's settles wait for the next acquire of their key (which applies them first) or
// for a flush; the in-process side applies each one at that same moment, in the same order. A burst is
// acquires made in one turn of the event loop: the Redis limiter sends one script per key, keys in the
// order they first appear, each key's acquires in the order made; the in-process side takes them in
// that order too.
import { createHash } from 'node:crypto';
import t from 'tap';
import fc from 'fast-check';
import type { LimitDecision, LimitRequest, Reservation } from '../../../../../src/policy/ratelimit/limiter.js';
import type { RateLimits } from '../../../../../src/keys/rate-limits.js';
import { MemoryRateLimiter, type ReservationData } from '../../../../../src/policy/ratelimit/memory-limiter.js';
import { GuardedRedis } from '../../../../../src/stores/redis/guarded-redis.js';
import { RedisRateLimiter, RedisReservation } from '../../../../../src/policy/ratelimit/redis/redis-limiter.js';
import type { ScriptRunner } from '../../../../../src/stores/redis/lua-script.js';
import { adminClient, deleteKeys, REDIS_URL, testPrefix, TEST_COMMAND_TIMEOUT_MS } from './redis-test-env.js';

const KEYS = [
  { keyId: 'k0', customerId: 'c0' },
  { keyId: 'k1', customerId: 'c0' },
  { keyId: 'k2', customerId: 'c1' },
];

const rpmArb = fc.constantFrom(null, 1, 3, 7, 60, 1000);
const tpmArb = fc.constantFrom(null, 100, 999, 5000, 100_000);
const limitsArb: fc.Arbitrary<RateLimits> = fc.record({ rpm: rpmArb, tpm: tpmArb });

type Op =
  | { op: 'acquire'; key: number; tokens: number }
  | { op: 'settle'; pick: number; used: number }
  | { op: 'advance'; ms: number }
  | { op: 'flush' }
  | { op: 'burst'; acquires: Array<{ key: number; tokens: number }> }
  | { op: 'editKey'; key: number; limits: RateLimits }
  | { op: 'editCustomer'; customer: number; limits: RateLimits | null };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('acquire' as const), key: fc.nat(2), tokens: fc.nat(6000) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('settle' as const), pick: fc.nat(50), used: fc.nat(8000) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('advance' as const),
      ms: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 0, max: 130_000 }),
        fc.double({ min: 0, max: 5000, noNaN: true, noDefaultInfinity: true }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('flush' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('burst' as const),
      acquires: fc.array(fc.record({ key: fc.nat(2), tokens: fc.nat(6000) }), { minLength: 2, maxLength: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('editKey' as const), key: fc.nat(2), limits: limitsArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('editCustomer' as const), customer: fc.nat(1), limits: fc.option(limitsArb, { nil: null }) }) },
);

const scenarioArb = fc.record({
  keyLimits: fc.tuple(limitsArb, limitsArb, limitsArb),
  customerLimits: fc.tuple(fc.option(limitsArb, { nil: null }), fc.option(limitsArb, { nil: null })),
  start: fc.double({ min: 0, max: 1e9, noNaN: true, noDefaultInfinity: true }),
  ops: fc.array(opArb, { minLength: 1, maxLength: 60 }),
});

/** A decision as comparable data: the reservation reduced to what it reserved. */
function comparable(d: LimitDecision): unknown {
  if (!d.allowed) return d;
  const r: ReservationData = d.reservation instanceof RedisReservation ? d.reservation.data : (d.reservation as unknown as ReservationData);
  return { allowed: true, status: d.status, keyTokens: r.keyTokens, customerTokens: r.customerTokens };
}

t.test('Lua arithmetic equals MemoryRateLimiter on random sequences', async (t) => {
  const admin = await adminClient();
  const prefix = testPrefix();
  // The arithmetic is under test here, not the connection: no 100 ms deadline that a busy test
  // host could miss, just the scripts run as they are.
  const redis: ScriptRunner = {
    evalScript: (script, keys, args) => admin.sendCommand(['EVAL', script.source, String(keys.length), ...keys, ...args]),
  };
  t.teardown(async () => {
    await deleteKeys(admin, prefix);
    await admin.close();
  });

  let run = 0;
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (s) => {
      let now = s.start;
      const memory = new MemoryRateLimiter(() => now);
      const shared = new RedisRateLimiter(redis, { prefix: `${prefix}r${run++}:`, now: () => now, settleDelayMs: Infinity, leases: false });
      const keyLimits = [...s.keyLimits];
      const customerLimits = [...s.customerLimits];
      const outstanding: Array<{ keyId: string; memory: Reservation; shared: Reservation }> = [];
      // The in-process settles not applied yet, by key, in the order the Redis limiter keeps them.
      const waiting = new Map<string, Array<() => void>>();
      const applyWaiting = (keyId: string) => {
        for (const settle of waiting.get(keyId) ?? []) settle();
        waiting.delete(keyId);
      };
      for (const [step, op] of s.ops.entries()) {
        if (op.op === 'advance') now += op.ms;
        else if (op.op === 'flush') {
          for (const keyId of [...waiting.keys()]) applyWaiting(keyId);
          await shared.flushSettles();
        }
        else if (op.op === 'editKey') keyLimits[op.key] = op.limits;
        else if (op.op === 'editCustomer') customerLimits[op.customer] = op.limits;
        else if (op.op === 'acquire' || op.op === 'burst') {
          const made = op.op === 'acquire' ? [{ key: op.key, tokens: op.tokens }] : op.acquires;
          const requests = made.map(({ key, tokens }): LimitRequest => {
            const { keyId, customerId } = KEYS[key];
            return { keyId, keyLimits: keyLimits[key], customerId, customerLimits: customerLimits[Number(customerId.slice(1))], tokens };
          });
          const actual = await Promise.all(requests.map((request) => shared.acquire(request)));
          // The order the scripts decided them in: by key, keys as they first appear.
          const keyOrder = [...new Set(requests.map((r) => r.keyId))];
          const decided = keyOrder.flatMap((keyId) => requests.flatMap((r, i) => (r.keyId === keyId ? [i] : [])));
          for (const i of decided) {
            const request = requests[i];
            if (decided.indexOf(i) === decided.findIndex((j) => requests[j].keyId === request.keyId)) applyWaiting(request.keyId);
            const expected = memory.acquire(request);
            if (JSON.stringify(comparable(actual[i])) !== JSON.stringify(comparable(expected))) {
              throw new Error(`step ${step} acquire ${i} ${JSON.stringify(request)}: redis ${JSON.stringify(comparable(actual[i]))} memory ${JSON.stringify(comparable(expected))}`);
            }
            const got = actual[i];
            if (expected.allowed && got.allowed) outstanding.push({ keyId: request.keyId, memory: expected.reservation, shared: got.reservation });
          }
        } else if (outstanding.length > 0) {
          const [held] = outstanding.splice(op.pick % outstanding.length, 1);
          const queue = waiting.get(held.keyId) ?? [];
          queue.push(() => memory.settle(held.memory, op.used));
          waiting.set(held.keyId, queue);
          shared.settle(held.shared, op.used);
        }
      }
    }),
    { numRuns: 400, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) },
  );
  t.pass('400 random sequences agree step by step');
});

t.test('the server clock is used when no clock is pinned', async (t) => {
  const admin = await adminClient();
  const prefix = testPrefix();
  const redis = new GuardedRedis({ url: REDIS_URL, commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS });
  await redis.start();
  t.teardown(async () => {
    await deleteKeys(admin, prefix);
    await admin.close();
    await redis.close();
  });
  const limiter = new RedisRateLimiter(redis, { prefix });
  const request: LimitRequest = { keyId: 'k', keyLimits: { rpm: 2, tpm: 1000 }, customerId: 'c', customerLimits: null, tokens: 600 };
  const first = await limiter.acquire(request);
  t.equal(first.allowed, true);
  t.equal(first.status.tokens?.remaining, 400);
  const second = await limiter.acquire(request);
  t.equal(second.allowed, false, '600 more tokens are not there');
  if (!second.allowed) {
    t.equal(second.scope, 'key');
    t.ok(second.retryAfterMs > 11_000 && second.retryAfterMs <= 12_000, `about 12 s for 200 tokens at 1000/min: ${second.retryAfterMs}`);
  }
  if (first.allowed) {
    t.type(first.reservation, RedisReservation);
    limiter.settle(first.reservation, 100);
  }
  const third = await limiter.acquire(request);
  t.equal(third.allowed, true, 'the 500 unused tokens came back');
  const ttl = await admin.pTTL(`${prefix}{c}:key:k`);
  t.ok(ttl > 60_000 && ttl < 200_000, `the entry expires a window after it would be full: ${ttl} ms`);
});

t.test('a script the server does not know yet runs through EVAL after NOSCRIPT, in the same call', async (t) => {
  const redis = new GuardedRedis({ url: REDIS_URL, commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS });
  t.ok(await redis.start(), `connects to ${REDIS_URL}`);
  t.teardown(() => redis.close());
  // A fresh comment makes a SHA no server has seen.
  const source = `-- ${testPrefix()}\nreturn ARGV[1]`;
  const fresh = { source, sha1: createHash('sha1').update(source).digest('hex') };
  t.equal(await redis.evalScript(fresh, [], ['hello']), 'hello');
  t.equal(await redis.evalScript(fresh, [], ['again']), 'again', 'then by EVALSHA');
  t.equal(redis.up, true, 'an error reply does not count against the store');
});
