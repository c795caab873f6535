// The routing promises through a real gateway in front of several simulated accounts: requests
// shared by weight, sessions kept on their route by every instance, priorities, failover on every kind
// of route failure with no client error, one 429 with the earliest retry-after when every route
// is out, a route at 0 headroom left until its reset, and a cool-down shared by the fleet through Redis.
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { startHarness, type Harness } from '../../helpers/harness.js';
import { bearer, call, type RawResponse } from '../../helpers/http.js';
import { startRedisFleet } from '../../helpers/redis-fleet.js';
import { waitFor } from '../../helpers/wait.js';
import { closedPort } from '../resilience/fixtures/closed-port.js';
import { messagesBody, startAccounts, type Accounts } from './fixtures/accounts.js';

async function gateway(t: Test, accounts: Accounts, env: Record<string, string> = {}): Promise<{ h: Harness; key: string }> {
  const h = await startHarness({ env: { ...accounts.env, ...env } });
  t.teardown(() => h.close());
  return { h, key: (await h.createKey()).key };
}

function send(h: Harness, key: string, session?: string): Promise<RawResponse> {
  return call(`${h.url}/gateway/v1/messages`, { body: messagesBody(session), headers: bearer(key) });
}

function chat(h: Harness, key: string): Promise<RawResponse> {
  const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  return call(`${h.url}/gateway/openai/v1/chat/completions`, { body, headers: bearer(key) });
}

/** Sends `n` requests, `concurrency` at a time; their statuses. */
async function burst(n: number, concurrency: number, one: (i: number) => Promise<RawResponse>): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) statuses.push((await one(next++)).status);
    }),
  );
  return statuses;
}

t.test('requests are shared by weight within a priority (±10 % over a few hundred)', async (t) => {
  const accounts = await startAccounts(t, [{ id: 'a', weight: 2 }, { id: 'b', weight: 1 }, { id: 'c', weight: 1 }]);
  const { h, key } = await gateway(t, accounts);
  const statuses = await burst(400, 8, () => send(h, key));
  t.ok(statuses.every((s) => s === 200), 'every request served');
  const counts = accounts.counts();
  for (const [id, share] of [['a', 0.5], ['b', 0.25], ['c', 0.25]] as const) {
    t.ok(Math.abs(counts[id]! / 400 - share) <= share * 0.1, `${id}: ${counts[id]} of 400 for a weight share of ${share}`);
  }
});

t.test('40 sessions × 5 requests each stay on their route, the same on two instances', async (t) => {
  const accounts = await startAccounts(t, [{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  const one = await gateway(t, accounts);
  // The second instance reads the first one's key store, as instances on one database do.
  const two = await startHarness({ env: { ...accounts.env, DATABASE_URL: `file:${join(one.h.dataDir, 'gateway.db')}` } });
  t.teardown(() => two.close());
  for (let s = 0; s < 40; s++) {
    for (let r = 0; r < 5; r++) t.equal((await send(r % 2 === 0 ? one.h : two, one.key, `session-${s}`)).status, 200);
  }
  const perSession = new Map<string, Set<string>>();
  for (const [id, sim] of accounts.sims) {
    for (const r of sim.received) {
      if (!r.url.startsWith('/v1/messages')) continue;
      const session = (JSON.parse(r.body.toString('utf8')) as { metadata: { user_id: string } }).metadata.user_id;
      if (!perSession.has(session)) perSession.set(session, new Set());
      perSession.get(session)!.add(id);
    }
  }
  t.equal(perSession.size, 40);
  t.same([...perSession.values()].filter((routes) => routes.size !== 1).length, 0, 'every session on one route on both instances');
  const used = new Set([...perSession.values()].map((r) => [...r][0]));
  t.equal(used.size, 3, 'the sessions spread over the three accounts');
});

t.test('a priority 2 route serves only when no priority 1 route can', async (t) => {
  const accounts = await startAccounts(t, [{ id: 'a' }, { id: 'b' }, { id: 'backup', priority: 2 }]);
  const { h, key } = await gateway(t, accounts);
  t.same(await burst(40, 4, () => send(h, key)), Array(40).fill(200));
  t.equal(accounts.counts().backup, 0, 'nothing for priority 2 while priority 1 serves');
  // Both priority 1 accounts throttled for a minute: only the backup is usable.
  for (const id of ['a', 'b']) accounts.sims.get(id)!.injectFault({ kind: 'status', status: 429, retryAfter: 60 });
  const statuses = await burst(10, 1, () => send(h, key));
  t.same(statuses, Array(10).fill(200), 'every request served by the backup, none refused');
  t.equal(accounts.counts().backup, 10);
  t.same(accounts.counts(), { a: accounts.counts().a, b: accounts.counts().b, backup: 10 });
  const before = accounts.counts();
  await send(h, key);
  t.equal(accounts.counts().a, before.a, 'a cooling route is not called again');
  t.equal(accounts.counts().b, before.b);
});

t.test('429, 529, 5xx, a refused connection and a timeout on one route fail over with no client error', async (t) => {
  const port = await closedPort();
  const cases: Array<[string, (a: Accounts) => void, Record<string, string>, { baseUrl?: string }]> = [
    ['429', (a) => a.sims.get('flaky')!.injectFault({ kind: 'status', status: 429, retryAfter: 30 }, 50), {}, {}],
    ['529', (a) => a.sims.get('flaky')!.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error' }, 50), {}, {}],
    ['500', (a) => a.sims.get('flaky')!.injectFault({ kind: 'status', status: 500 }, 50), {}, {}],
    ['503', (a) => a.sims.get('flaky')!.injectFault({ kind: 'status', status: 503 }, 50), {}, {}],
    ['504 (the provider timed out)', (a) => a.sims.get('flaky')!.injectFault({ kind: 'status', status: 504 }, 50), {}, {}],
    ['connection refused', () => {}, {}, { baseUrl: `http://127.0.0.1:${port}` }],
    ['timeout before headers', (a) => a.sims.get('flaky')!.injectFault({ kind: 'hang-before-headers' }, 50), { GATEWAY_UPSTREAM_HEADERS_TIMEOUT_MS: '300' }, {}],
  ];
  for (const [name, fault, env, flaky] of cases) {
    await t.test(name, async (t) => {
      const accounts = await startAccounts(t, [{ id: 'flaky', ...flaky }, { id: 'good' }]);
      const { h, key } = await gateway(t, accounts, env);
      fault(accounts);
      const statuses = await burst(30, 3, (i) => (i % 2 === 0 ? send(h, key) : chat(h, key)));
      t.same(statuses, Array(30).fill(200), `${name}: every request served, on both surfaces`);
      t.equal(accounts.counts().good, 30, 'the good account served them all');
    });
  }
});

t.test('every route out of headroom: one 429 with the earliest retry-after; then refused without calling', async (t) => {
  const accounts = await startAccounts(t, [{ id: 'a' }, { id: 'b' }]);
  const { h, key } = await gateway(t, accounts);
  accounts.sims.get('a')!.injectFault({ kind: 'status', status: 429, retryAfter: 50 });
  accounts.sims.get('b')!.injectFault({ kind: 'status', status: 429, retryAfter: 20 });
  const first = await send(h, key);
  t.equal(first.status, 429);
  t.equal(first.json().error.type, 'rate_limit_error');
  const after = Number(first.headers['retry-after']);
  t.ok(after > 10 && after <= 20, `retry-after ${after}: the earliest route's, not the last one's`);
  const calls = accounts.counts();
  t.same(calls, { a: 1, b: 1 }, 'both routes tried once');
  const second = await chat(h, key);
  t.equal(second.status, 429, 'the next request is refused at once');
  t.equal(second.json().error.code, 'rate_limit_exceeded');
  t.ok(Number(second.headers['retry-after']) <= 20);
  t.same(accounts.counts(), calls, 'nothing was sent upstream');
  const ready = (await call(`${h.url}/readyz`)).json();
  t.same(
    ready.routes.map((r: { name: string; state: string }) => [r.name, r.state]),
    [['claude-sonnet-4-6@a', 'throttled'], ['claude-sonnet-4-6@b', 'throttled']],
    '/readyz shows each route and why it is left out',
  );
  const metrics = (await call(`${h.url}/metrics`)).text;
  for (const id of ['a', 'b']) {
    t.match(metrics, `model_gateway_route_cooling_state{route="claude-sonnet-4-6@${id}",provider="${id}",reason="throttled"} 1`);
    t.match(metrics, `model_gateway_route_attempts_total{route="claude-sonnet-4-6@${id}",provider="${id}",outcome="rate_limited"} 1`);
  }
  t.match(metrics, 'model_gateway_rate_limited_requests_total{surface="chat",scope="upstream"} 1');
});

t.test('a route whose rate limit reports 0 left is left alone until its reset, before any 429', async (t) => {
  // Two requests a minute: the second answer says 0 requests remaining until the bucket refills.
  const accounts = await startAccounts(t, [{ id: 'tiny', limits: { requestsPerMinute: 2 } }, { id: 'big' }]);
  // The gateway's wall clock and the simulator's move ahead together, so the reset comes without waiting for it.
  let aheadMs = 0;
  const h = await startHarness({ env: accounts.env, wallClock: () => Date.now() + aheadMs });
  t.teardown(() => h.close());
  const key = (await h.createKey()).key;
  t.same(await burst(20, 1, () => send(h, key)), Array(20).fill(200), 'every request served');
  t.equal(accounts.counts().tiny, 2, 'tiny got its two requests and nothing after its headroom reached 0 (so never a 429)');
  const tiny = accounts.sims.get('tiny')!;
  const view = h.runtime.routes.byRouteName('claude-sonnet-4-6@tiny')!.coolingAt(Date.now() + aheadMs);
  t.equal(view?.reason, 'no_headroom');
  // Just before the reset it is still left alone.
  const resetAt = view!.until;
  aheadMs = resetAt - Date.now() - 2000;
  tiny.advanceClock(aheadMs);
  t.same(await burst(4, 1, () => send(h, key)), Array(4).fill(200));
  t.equal(accounts.counts().tiny, 2, 'not before its reset');
  // Past the reset it serves its share again.
  const step = resetAt - Date.now() + 1000 - aheadMs;
  aheadMs += step;
  tiny.advanceClock(step);
  t.same(await burst(6, 1, () => send(h, key)), Array(6).fill(200));
  t.ok(accounts.counts().tiny > 2, `served again after its reset (${accounts.counts().tiny - 2} more)`);
});

t.test('a cool-down learned by one instance holds on the other, shared through Redis', async (t) => {
  const accounts = await startAccounts(t, [{ id: 'a' }, { id: 'b' }]);
  const fleet = await startRedisFleet(t, 2, accounts.env);
  const [one, two] = fleet.instances as [Harness, Harness];
  const key = (await one.createKey()).key;
  accounts.sims.get('a')!.injectFault({ kind: 'status', status: 429, retryAfter: 60 });
  // Round robin: one of the two requests goes to a first, gets its 429 and fails over to b.
  t.same(await burst(2, 1, () => send(one, key)), [200, 200]);
  t.equal(accounts.counts().a, 1, 'a answered 429 once');
  const stateOn = async (h: Harness): Promise<string | undefined> =>
    ((await call(`${h.url}/readyz`)).json().routes as Array<{ name: string; state: string }>).find((r) => r.name === 'claude-sonnet-4-6@a')?.state;
  t.equal(await stateOn(one), 'throttled');
  // The promise is a second; the bound here is generous so a loaded machine does not fail it.
  await waitFor(async () => (await stateOn(two)) === 'throttled', 5000);
  const entry = await fleet.redis.hGet(`${fleet.prefix}routes:cooling`, 'claude-sonnet-4-6@a');
  t.match(entry, /^\d+ throttled$/, 'the cool-down is in the fleet hash');
  t.same(await burst(10, 2, () => send(two, key)), Array(10).fill(200));
  t.equal(accounts.counts().a, 1, 'the other instance never called the cooling route');
  t.equal(accounts.counts().b, 12, 'b served both of the first instance\'s requests and all of these');
});
