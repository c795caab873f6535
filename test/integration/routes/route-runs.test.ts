// Issue 31's capacity and cache goals in short runs (the full ones are bench/tools/routes.ts): two
// accounts of 600 rpm offered 1,150 rpm for a simulated minute serve everything with no client 429
// (one account against the same load is the bench's: it needs longer runs to show); 50 sessions over 3 accounts read from the per-account prompt
// cache as much as over one account, because each session keeps to its route.
import t from 'tap';
import { runCacheShare, runCapacity } from '../../../bench/tools/routes/route-runs.js';

t.test('capacity: two accounts of 600 rpm take 1,150 rpm with no client 429', async (t) => {
  const two = await runCapacity({ accounts: 2, rpmEach: 600, offeredRpm: 1150, minutes: 1 });
  t.equal(two.refused, 0, 'no client-visible 429');
  t.equal(two.failed, 0);
  t.ok(two.served / two.offered >= 0.95, `served ${two.served} of ${two.offered}`);
  t.equal(two.upstream429, 0, 'neither account was pushed to a 429');
});

t.test('cache: 50 sessions over 3 accounts read as much from cache as over one', async (t) => {
  const three = await runCacheShare({ accounts: 3, sessions: 50, requestsPerSession: 3 });
  const one = await runCacheShare({ accounts: 1, sessions: 50, requestsPerSession: 3 });
  t.ok(one.readShare > 0.5, `one account: cache reads ${(one.readShare * 100).toFixed(1)} % of input`);
  t.ok(three.readShare / one.readShare >= 0.98, `three accounts: ${(three.readShare * 100).toFixed(1)} % (${(three.readShare / one.readShare).toFixed(3)} of one account's)`);
});
