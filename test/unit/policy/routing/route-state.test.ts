// A route's cool-downs: the provider's hint wins, unhinted throttles double from 5 s up to 60 s, and
// a cool-down learned from another instance only ever lengthens the one in force; a stream broken off
// by a throttle or an overload cools its route through the router.
import t from 'tap';
import { coolsAfterStreamError, FIRST_COOL_DOWN_MS, LONGEST_COOL_DOWN_MS, unhintedCoolDownMs } from '../../../../src/policy/routing/cool-down.js';
import { RetryPolicy } from '../../../../src/policy/resilience/retry-policy.js';
import { RouteTable } from '../../../../src/policy/routing/route-table.js';
import { Router } from '../../../../src/policy/routing/router.js';
import type { Provider } from '../../../../src/providers/provider.js';
import { BREAKER, route, state } from './fixtures/routes.js';

const NOW = 1_800_000_000_000;

t.test('unhinted cool-downs: 5 s, doubling on repeats, at most 60 s', async (t) => {
  t.same([0, 1, 2, 3, 4, 5, 40].map(unhintedCoolDownMs), [5000, 10000, 20000, 40000, 60000, 60000, 60000]);
  t.equal(FIRST_COOL_DOWN_MS, 5000);
  t.equal(LONGEST_COOL_DOWN_MS, 60000);
});

t.test('throttles: hinted as the provider says, unhinted doubling until a normal answer', async (t) => {
  const s = state(route('a'));
  t.equal(s.coolingAt(NOW), null, 'a new route may be tried');
  t.equal(s.throttled(null, NOW).until, NOW + 5000);
  t.equal(s.throttled(null, NOW).until, NOW + 10000, 'a repeat doubles');
  t.equal(s.throttled(NOW + 2000, NOW).until, NOW + 10000, 'a shorter hint does not shorten the cool-down in force');
  t.equal(s.coolingAt(NOW + 9999)?.reason, 'throttled');
  t.equal(s.coolingAt(NOW + 10000), null, 'over at its end');
  s.served();
  t.equal(s.throttled(null, NOW + 20000).until, NOW + 25000, 'after a normal answer the doubling starts over');
});

t.test('no headroom until a reset; cool-downs from elsewhere lengthen only', async (t) => {
  const s = state(route('a'));
  t.same(s.exhausted(NOW + 30000), { until: NOW + 30000, reason: 'no_headroom' });
  t.equal(s.coolUntil(NOW + 1000, 'throttled').until, NOW + 30000, 'an earlier end from elsewhere changes nothing');
  t.same(s.coolUntil(NOW + 60000, 'throttled'), { until: NOW + 60000, reason: 'throttled' });
});

t.test('a stream broken off by a throttle or an overload cools its route; other errors do not', async (t) => {
  const providers = [{ id: 'a' } as Provider, { id: 'b' } as Provider];
  const routes = new RouteTable({ providers, named: true, configured: new Map([['m', { routes: [{ provider: 'a', model: null, weight: 1, priority: 1, prices: null }], where: 'test' }]]), breaker: BREAKER });
  const cooled: string[] = [];
  const router = new Router(routes, new RetryPolicy({ attempts: 1, baseDelayMs: 0, maxDelayMs: 0, retryAfterCapMs: 0, deadlineMs: 1000 }), { resolve: () => null }, {
    retry: () => {},
    upstreamError: () => {},
    cooled: (r, c) => cooled.push(`${r.name} ${c.until - NOW} ${c.reason}`),
  }, undefined, () => NOW);
  const served = routes.byRouteName('m@a')!;
  for (const type of ['api_error', 'invalid_request_error', 'timeout_error']) t.equal(router.streamBroke(served.route, type), null, `${type}: no cool-down`);
  t.equal(served.coolingAt(NOW), null);
  t.same(router.streamBroke(served.route, 'rate_limit_error'), { until: NOW + 5000, reason: 'throttled' }, 'a throttle: the unhinted cool-down');
  t.same(router.streamBroke(served.route, 'overloaded_error'), { until: NOW + 10000, reason: 'throttled' }, 'an overload too, doubling on a repeat');
  t.same(cooled, ['m@a 5000 throttled', 'm@a 10000 throttled'], 'each shared as a 429\'s would be');
  t.ok(['rate_limit_error', 'overloaded_error'].every(coolsAfterStreamError));
});
