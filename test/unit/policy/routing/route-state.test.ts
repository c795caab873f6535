// A route's cool-downs: the provider's hint wins, unhinted throttles double from 5 s up to 60 s, and
// a cool-down learned from another instance only ever lengthens the one in force.
import t from 'tap';
import { FIRST_COOL_DOWN_MS, LONGEST_COOL_DOWN_MS, unhintedCoolDownMs } from '../../../../src/policy/routing/cool-down.js';
import { route, state } from './fixtures/routes.js';

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
