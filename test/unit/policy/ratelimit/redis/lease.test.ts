// A lease on its own (no Redis): what it covers, what a request takes from it, the settles it takes in,
// the windows it shows, and how many requests a key asks for.
import t from 'tap';
import { busierBy, Lease, LEASE_TTL_MS, leaseWanted, MAX_LEASE_REQUESTS } from '../../../../../src/policy/ratelimit/redis/lease.js';
import type { LimitRequest } from '../../../../../src/policy/ratelimit/limiter.js';
import type { RateLimits } from '../../../../../src/keys/rate-limits.js';

const keyLimits: RateLimits = { rpm: 6000, tpm: 600_000 };
const request = (tokens: number, limits: RateLimits = keyLimits): LimitRequest => ({ keyId: 'k', keyLimits: limits, customerId: 'c', customerLimits: null, tokens });
const shared = { requests: { limit: 6000, remaining: 5000, resetMs: 10_000 }, tokens: { limit: 600_000, remaining: 500_000, resetMs: 10_000 } };

t.test('covers a request in time, under the same limits, while requests and tokens last', async (t) => {
  const lease = new Lease(keyLimits, null, '7', 2, 300, shared, 1000);
  const cases: Array<[string, LimitRequest, number, boolean]> = [
    ['fits', request(100), 0, true],
    ['tokens exactly', request(300), 999, true],
    ['too many tokens', request(301), 0, false],
    ['expired', request(1), 1000, false],
    ['other key limits', request(1, { rpm: 6000, tpm: 500_000 }), 0, false],
    ['a customer limit now', { ...request(1), customerLimits: { rpm: 10, tpm: null } }, 0, false],
  ];
  for (const [name, r, now, expected] of cases) t.equal(lease.covers(r, now), expected, name);
  lease.take(request(100));
  lease.take(request(100));
  t.equal(lease.covers(request(1), 0), false, 'no request left');
  t.equal(lease.live(0), true, 'still live: it takes settles');
});

t.test('a request takes one request and its tokens, reserved by each limited bucket', async (t) => {
  const lease = new Lease(keyLimits, { rpm: null, tpm: 1_000_000 }, '7', 5, 1000, shared, 1000);
  t.same(lease.take(request(100, keyLimits)), { keyTokens: 100, customerTokens: 100 });
  const rpmOnly = new Lease({ rpm: 60, tpm: null }, null, '7', 5, 0, { requests: shared.requests, tokens: null }, 1000);
  t.equal(rpmOnly.covers(request(10_000, { rpm: 60, tpm: null }), 0), true, 'no token limit: any size fits');
  t.same(rpmOnly.take(request(10_000, { rpm: 60, tpm: null })), { keyTokens: 0, customerTokens: 0 });
  t.equal(rpmOnly.requests, 4);
});

t.test('settles are kept to go back with the lease; a debt it cannot pay goes elsewhere', async (t) => {
  const lease = new Lease(keyLimits, null, '7', 4, 400, shared, 1000);
  lease.take(request(100));
  t.equal(lease.tokens, 300);
  t.equal(lease.absorb(100, 40, 0), true, '60 unused are kept');
  t.same([lease.tokens, lease.refunds], [300, 60], 'to give back, not to decide with');
  t.equal(lease.covers(request(301), 0), false, 'a request needing them still goes to Redis');
  t.equal(lease.absorb(100, 250, 0), true, 'a debt of 150: 60 from what was kept, 90 from the tokens');
  t.same([lease.tokens, lease.refunds], [210, 0]);
  t.equal(lease.absorb(100, 400, 0), false, 'a debt of 300 is more than it holds');
  t.same([lease.tokens, lease.refunds], [210, 0], 'and nothing changed');
  t.equal(lease.absorb(100, 0, 1000), false, 'not once expired');
  lease.absorb(100, 70, 0);
  t.same(lease.retire(), { requests: 3, tokens: 240 }, 'retiring hands over what it holds, kept tokens included');
  t.equal(lease.absorb(100, 0, 0), false, 'not once retired');
  t.equal(lease.covers(request(1), 0), false);
});

t.test('the windows shown: the fleet as Redis left it plus what the lease holds', async (t) => {
  const lease = new Lease(keyLimits, null, '7', 10, 1000, shared, 1000);
  t.same(lease.status(), {
    requests: { limit: 6000, remaining: 5010, resetMs: 9900 },
    tokens: { limit: 600_000, remaining: 501_000, resetMs: 9900 },
  });
  lease.take(request(1000));
  t.same(lease.status().requests, { limit: 6000, remaining: 5009, resetMs: 9910 }, 'one fewer per request');
  t.equal(lease.status().tokens?.remaining, 500_000);
});

t.test('a key asks for a lease only when busy, and asked for again within a lease life', async (t) => {
  const cases: Array<[number, number, number]> = [
    [1, LEASE_TTL_MS, 0],
    [500, LEASE_TTL_MS + 1, 0],
    [3.9, 0, 0],
    [4, 0, 8],
    [20.5, 5, 41],
    [30, 10, 60],
    [10_000, 10, MAX_LEASE_REQUESTS],
  ];
  for (const [busy, ms, wanted] of cases) t.equal(leaseWanted(busy, ms), wanted, `busy ${busy}, ${ms} ms since the last script`);
});

t.test('how busy a key reads: about its requests of the last 100 ms, steady or in a burst', async (t) => {
  const steady = (perSecond: number, requests: number) => {
    let busy = 0;
    for (let i = 0; i < requests; i++) busy = busierBy(busy, i === 0 ? Infinity : 1000 / perSecond);
    return busy;
  };
  const cases: Array<{ what: string; busy: number; from: number; to: number; leases: boolean }> = [
    // One at a time, each after the one before has been decided: never several since a script, yet busy.
    { what: '200 a second, steady', busy: steady(200, 400), from: 20, to: 21, leases: true },
    { what: '40 a second, steady', busy: steady(40, 80), from: 4, to: 5, leases: true },
    { what: '20 a second, steady', busy: steady(20, 40), from: 2, to: 3, leases: false },
    { what: 'the first request', busy: steady(200, 1), from: 1, to: 1, leases: false },
    { what: 'a burst of 16 at once', busy: steady(Infinity, 16), from: 16, to: 16, leases: true },
  ];
  for (const c of cases) {
    t.ok(c.busy >= c.from && c.busy <= c.to, `${c.what}: busy ${c.busy.toFixed(2)}`);
    t.equal(leaseWanted(c.busy, 1) > 0, c.leases, `${c.what}: ${c.leases ? 'leases' : 'no lease'}`);
  }
  t.equal(busierBy(16, 1000), 1 + 16 * Math.exp(-10), 'a second later a burst has all but gone');
});
