// The fallback decisions without a Redis server: fakes stand in for the store and the registry.
import t from 'tap';
import type { LimitDecision, LimitRequest, RateLimiter } from '../../../../../src/policy/ratelimit/limiter.js';
import { MemoryRateLimiter } from '../../../../../src/policy/ratelimit/memory-limiter.js';
import { Breaker } from '../../../../../src/stores/redis/breaker.js';
import { FallbackLimiter, shareOf } from '../../../../../src/policy/ratelimit/redis/fallback-limiter.js';
import { RedisReservation } from '../../../../../src/policy/ratelimit/redis/redis-limiter.js';

const request: LimitRequest = { keyId: 'k', keyLimits: { rpm: 9, tpm: 1000 }, customerId: 'c', customerLimits: { rpm: 3, tpm: null }, tokens: 10 };

function sharedFake(behaviour: 'ok' | 'throw') {
  const calls = { acquire: 0, settle: 0 };
  const limiter: RateLimiter = {
    async acquire(r): Promise<LimitDecision> {
      calls.acquire++;
      if (behaviour === 'throw') throw new Error('redis unavailable: timeout');
      return { allowed: true, reservation: new RedisReservation({ keyId: r.keyId, keyTokens: r.tokens, customerId: r.customerId, customerTokens: 0, keyLimits: r.keyLimits, customerLimits: r.customerLimits }), status: { requests: null, tokens: null } };
    },
    async settle() {
      calls.settle++;
    },
  };
  return { limiter, calls };
}

t.test('shareOf divides each limit by the live instances, never below 1', async (t) => {
  t.same(shareOf({ rpm: 10, tpm: null }, 3), { rpm: 3, tpm: null });
  t.same(shareOf({ rpm: 2, tpm: 1000 }, 4), { rpm: 1, tpm: 250 });
  t.same(shareOf({ rpm: 10, tpm: 10 }, 1), { rpm: 10, tpm: 10 });
});

t.test('store up: Redis decides, nothing counted, nothing logged', async (t) => {
  const { limiter: shared, calls } = sharedFake('ok');
  let fallbacks = 0;
  const logs: string[] = [];
  const limiter = new FallbackLimiter(shared, { up: true }, { liveInstances: 3 }, { onFallbackDecision: () => fallbacks++, log: (e) => logs.push(e) });
  const d = await limiter.acquire(request);
  t.ok(d.allowed && d.reservation instanceof RedisReservation);
  if (d.allowed) await limiter.settle(d.reservation, 5);
  t.same(calls, { acquire: 1, settle: 1 });
  t.equal(fallbacks, 0);
  t.same(logs, []);
});

t.test('store down: no Redis call, local shares, counted per decision, logged once', async (t) => {
  const { limiter: shared, calls } = sharedFake('ok');
  let fallbacks = 0;
  const logs: string[] = [];
  const limiter = new FallbackLimiter(shared, { up: false }, { liveInstances: 3 }, { onFallbackDecision: () => fallbacks++, log: (e) => logs.push(e) }, new MemoryRateLimiter(() => 0));
  const decisions: LimitDecision[] = [];
  for (let i = 0; i < 3; i++) decisions.push(await limiter.acquire(request));
  t.equal(calls.acquire, 0, 'Redis is not asked');
  t.same(decisions.map((d) => d.allowed), [true, false, false], 'the customer share is 3 / 3 = 1 request');
  t.equal(decisions[0].status.requests?.limit, 1);
  t.equal(fallbacks, 3);
  t.same(logs, ['fallback']);
  const first = decisions[0];
  if (first.allowed) void limiter.settle(first.reservation, 5);
  t.equal(calls.settle, 0, 'a local reservation settles locally');
});

t.test('store up but the call fails: the request falls back, then resumes with one log each', async (t) => {
  let behaviour: 'ok' | 'throw' = 'throw';
  const shared: RateLimiter = {
    acquire: (r) => (behaviour === 'throw' ? sharedFake('throw') : sharedFake('ok')).limiter.acquire(r),
    settle: () => {},
  };
  const logs: string[] = [];
  const limiter = new FallbackLimiter(shared, { up: true }, { liveInstances: 1 }, { log: (e) => logs.push(e) });
  t.equal((await limiter.acquire(request)).allowed, true, 'answered locally, not thrown');
  await limiter.acquire(request);
  behaviour = 'ok';
  await limiter.acquire(request);
  t.same(logs, ['fallback', 'resumed']);
});

t.test('a Redis reservation settled while the store is down is dropped quietly', async (t) => {
  const { limiter: shared, calls } = sharedFake('ok');
  const limiter = new FallbackLimiter(shared, { up: false }, { liveInstances: 1 });
  await limiter.settle(new RedisReservation({ keyId: 'k', keyTokens: 1, customerId: 'c', customerTokens: 0, keyLimits: { rpm: 1, tpm: 1 }, customerLimits: null }), 5);
  t.equal(calls.settle, 0);
});

t.test('breaker: opens after N consecutive failures, a success in between resets, closes on success', async (t) => {
  const changes: boolean[] = [];
  const b = new Breaker(3, (closed) => changes.push(closed));
  b.failure();
  b.failure();
  b.success();
  b.failure();
  b.failure();
  t.equal(b.closed, true, 'never three in a row');
  b.failure();
  t.equal(b.closed, false);
  b.failure();
  b.success();
  t.equal(b.closed, true);
  t.same(changes, [false, true], 'each change reported once');
});
