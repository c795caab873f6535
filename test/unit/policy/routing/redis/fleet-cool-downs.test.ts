// The fleet's route cool-downs on a real Redis: the later end of a route wins whoever writes first,
// ended ones are dropped and the hash expires with its last; a reader applies what is there; with
// Redis away nothing throws and nothing is applied.
import t from 'tap';
import { GuardedRedis } from '../../../../../src/stores/redis/guarded-redis.js';
import { coolingRoutesEntry, FleetCoolDowns, parseCoolDown } from '../../../../../src/policy/routing/redis/fleet-cool-downs.js';
import type { CoolDownReason } from '../../../../../src/policy/routing/route-state.js';
import { closedPort } from '../../../../helpers/ports.js';
import { guardedRedisFor } from '../../ratelimit/redis/redis-test-env.js';

/** What a reader applied, by route. */
function applied(): { seen: Map<string, [number, CoolDownReason]>; coolUntil(route: string, until: number, reason: CoolDownReason): void } {
  const seen = new Map<string, [number, CoolDownReason]>();
  return { seen, coolUntil: (route, until, reason) => seen.set(route, [until, reason]) };
}

t.test('entries as stored', async (t) => {
  t.same(parseCoolDown('1764300000000 throttled'), { until: 1764300000000, reason: 'throttled' });
  t.same(parseCoolDown('1764300000000 no_headroom'), { until: 1764300000000, reason: 'no_headroom' });
  for (const bad of ['', 'soon throttled', '1764300000000', '1764300000000 tired']) t.equal(parseCoolDown(bad), null, JSON.stringify(bad));
});

t.test('the later end wins, ended ones go, the hash lives as long as its last', async (t) => {
  const { admin, prefix, redis } = await guardedRedisFor(t);
  const now = 1_000_000;
  const writer = new FleetCoolDowns(redis, applied(), { prefix, wallNow: () => now, readEveryMs: 60_000 });
  t.teardown(() => writer.close());
  writer.share('m@a', { until: now + 30_000, reason: 'throttled' });
  writer.share('m@a', { until: now + 10_000, reason: 'no_headroom' });
  writer.share('m@b', { until: now + 5_000, reason: 'no_headroom' });
  await writer.close();
  const key = coolingRoutesEntry(prefix);
  t.same(await admin.hGetAll(key), { 'm@a': `${now + 30_000} throttled`, 'm@b': `${now + 5_000} no_headroom` }, 'an earlier end does not replace a later one');
  const ttl = await admin.pTTL(key);
  t.ok(ttl > 25_000 && ttl <= 30_000, `expires with its last cool-down (${ttl} ms)`);

  // Later on the clock: m@b has ended and goes at the next write.
  const later = new FleetCoolDowns(redis, applied(), { prefix, wallNow: () => now + 6_000, readEveryMs: 60_000 });
  later.share('m@c', { until: now + 7_000, reason: 'throttled' });
  await later.close();
  t.same(Object.keys(await admin.hGetAll(key)).sort(), ['m@a', 'm@c']);

  const target = applied();
  const reader = new FleetCoolDowns(redis, target, { prefix, wallNow: () => now + 6_500, readEveryMs: 60_000 });
  await reader.read();
  await reader.close();
  t.same(Object.fromEntries(target.seen), { 'm@a': [now + 30_000, 'throttled'], 'm@c': [now + 7_000, 'throttled'] });
});

t.test('Redis away: sharing and reading do nothing and throw nothing', async (t) => {
  const redis = new GuardedRedis({ url: `redis://127.0.0.1:${await closedPort()}`, connectTimeoutMs: 200 });
  t.equal(await redis.start(), false);
  t.teardown(() => redis.close());
  const errors: unknown[] = [];
  const target = applied();
  const fleet = new FleetCoolDowns(redis, target, { prefix: 'mgw-test-away:', readEveryMs: 60_000, onError: (e) => errors.push(e) });
  fleet.share('m@a', { until: Date.now() + 10_000, reason: 'throttled' });
  await fleet.read();
  await fleet.close();
  t.equal(target.seen.size, 0);
  t.same(errors, [], 'an unavailable store is not an error to log');
});
