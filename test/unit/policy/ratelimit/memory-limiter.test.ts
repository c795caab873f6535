import t from 'tap';
import type { LimitDecision, LimitRequest } from '../../../../src/policy/ratelimit/limiter.js';
import { MemoryRateLimiter } from '../../../../src/policy/ratelimit/memory-limiter.js';

function setup() {
  let now = 0;
  const limiter = new MemoryRateLimiter(() => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

function req(over: Partial<LimitRequest> = {}): LimitRequest {
  return { keyId: 'k1', keyLimits: { rpm: null, tpm: null }, customerId: 'c1', customerLimits: null, tokens: 0, ...over };
}

function allowed(d: LimitDecision): Extract<LimitDecision, { allowed: true }> {
  if (!d.allowed) throw new Error(`refused: ${JSON.stringify(d)}`);
  return d;
}

t.test('requests per minute: the rpm+1st request is refused with the wait until one token is back', async (t) => {
  const { limiter, advance } = setup();
  const r = req({ keyLimits: { rpm: 3, tpm: null } });
  for (let i = 0; i < 3; i++) allowed(limiter.acquire(r));
  const refused = limiter.acquire(r);
  t.equal(refused.allowed, false);
  if (!refused.allowed) {
    t.equal(refused.scope, 'key');
    t.equal(refused.retryAfterMs, 20_000, '3 per minute: one every 20 s');
    t.same(refused.status.requests, { limit: 3, remaining: 0, resetMs: 60_000 });
    t.equal(refused.status.tokens, null, 'no token limit, no token window');
  }
  advance(20_000);
  allowed(limiter.acquire(r));
});

t.test('tokens per minute: max_tokens is reserved; settle gives back what was not used', async (t) => {
  const { limiter } = setup();
  const r = req({ keyLimits: { rpm: null, tpm: 1000 }, tokens: 600 });
  const first = allowed(limiter.acquire(r));
  t.equal(first.status.tokens?.remaining, 400);
  t.equal(limiter.acquire(r).allowed, false, '600 more do not fit in 400');
  limiter.settle(first.reservation, 100);
  const second = allowed(limiter.acquire(r));
  t.equal(second.status.tokens?.remaining, 300, '1000 - 100 used - 600 reserved');
});

t.test('a settle above the reservation puts the key in debt', async (t) => {
  const { limiter, advance } = setup();
  const r = req({ keyLimits: { rpm: null, tpm: 1000 }, tokens: 100 });
  const d = allowed(limiter.acquire(r));
  limiter.settle(d.reservation, 1500);
  const refused = limiter.acquire({ ...r, tokens: 0 });
  t.equal(refused.allowed, false);
  if (!refused.allowed) t.equal(refused.retryAfterMs, 30_000, '500 tokens of debt at 1000/min');
  advance(30_000);
  allowed(limiter.acquire({ ...r, tokens: 0 }));
});

t.test('a reservation larger than the whole limit is clamped so it can ever pass', async (t) => {
  const { limiter } = setup();
  const r = req({ keyLimits: { rpm: null, tpm: 1000 }, tokens: 64_000 });
  const d = allowed(limiter.acquire(r));
  t.equal(d.status.tokens?.remaining, 0);
  limiter.settle(d.reservation, 10);
  t.equal(allowed(limiter.acquire({ ...r, tokens: 0 })).status.tokens?.remaining, 990);
});

t.test('a refused request costs nothing', async (t) => {
  const { limiter } = setup();
  const r = req({ keyLimits: { rpm: 10, tpm: 100 }, tokens: 80 });
  allowed(limiter.acquire(r));
  t.equal(limiter.acquire(r).allowed, false);
  const d = allowed(limiter.acquire({ ...r, tokens: 20 }));
  t.equal(d.status.requests?.remaining, 8, 'two accepted requests counted, not the refused one');
});

t.test('customer limits apply across the customer’s keys; the key limit applies alone', async (t) => {
  const { limiter } = setup();
  const customer = { rpm: 2, tpm: null };
  allowed(limiter.acquire(req({ keyId: 'a', customerLimits: customer })));
  allowed(limiter.acquire(req({ keyId: 'b', customerLimits: customer })));
  const refused = limiter.acquire(req({ keyId: 'c', customerLimits: customer }));
  t.equal(refused.allowed, false);
  if (!refused.allowed) t.equal(refused.scope, 'customer');
  allowed(limiter.acquire(req({ keyId: 'c', customerId: 'other', customerLimits: customer })));
});

t.test('keys are isolated from each other', async (t) => {
  const { limiter } = setup();
  const limits = { rpm: 1, tpm: null };
  allowed(limiter.acquire(req({ keyId: 'a', keyLimits: limits })));
  t.equal(limiter.acquire(req({ keyId: 'a', keyLimits: limits })).allowed, false);
  allowed(limiter.acquire(req({ keyId: 'b', keyLimits: limits })));
});

t.test('status reports the tighter of key and customer per dimension', async (t) => {
  const { limiter } = setup();
  const d = allowed(limiter.acquire(req({ keyLimits: { rpm: 100, tpm: null }, customerLimits: { rpm: 5, tpm: 1000 }, tokens: 10 })));
  t.same(d.status.requests, { limit: 5, remaining: 4, resetMs: 12_000 });
  t.equal(d.status.tokens?.limit, 1000);
  t.equal(d.status.tokens?.remaining, 990);
});

t.test('an edited key limit applies to the next request', async (t) => {
  const { limiter } = setup();
  allowed(limiter.acquire(req({ keyLimits: { rpm: 10, tpm: null } })));
  const d = allowed(limiter.acquire(req({ keyLimits: { rpm: 2, tpm: null } })));
  t.same(d.status.requests, { limit: 2, remaining: 1, resetMs: 30_000 }, 'the level is clamped to the new limit');
  allowed(limiter.acquire(req({ keyLimits: { rpm: 2, tpm: null } })));
  t.equal(limiter.acquire(req({ keyLimits: { rpm: 2, tpm: null } })).allowed, false);
});

t.test('full buckets are swept; a settle after the sweep still counts its debt', async (t) => {
  const { limiter, advance } = setup();
  const r = req({ keyLimits: { rpm: 10, tpm: 100 }, tokens: 10 });
  const d = allowed(limiter.acquire(r));
  t.equal(limiter.size, 1);
  advance(60_000);
  limiter.sweep();
  t.equal(limiter.size, 0, 'a full bucket is dropped');
  limiter.settle(d.reservation, 150);
  t.equal(limiter.size, 1, 'the debt needs a bucket again');
  t.equal(limiter.acquire({ ...r, tokens: 0 }).allowed, false);
});

t.test('settle refuses a foreign reservation', async (t) => {
  const { limiter } = setup();
  t.throws(() => limiter.settle({ tokens: 1 }, 1), TypeError);
});
