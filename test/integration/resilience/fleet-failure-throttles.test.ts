// Three gateway instances on one key store and one Redis (REDIS_URL): failed key authentications from one
// address and failed dashboard sign-ins count over the fleet, so spreading guesses over instances gains an
// attacker nothing, while the real person signing in from elsewhere is not refused.
import t from 'tap';
import type { Test } from 'tap';
import { join } from 'node:path';
import type { Harness } from '../../helpers/harness.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from '../dashboard/dashboard-harness.js';
import type { DashboardDeps } from '../../../src/admin/routes.js';
import { adminClient, deleteKeys, REDIS_URL, testPrefix } from '../../unit/policy/ratelimit/redis/redis-test-env.js';

const messagesBody = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
const PASSWORD = 'the right password 123';

/** Three instances sharing the first one's database file and one Redis under this test's own prefix. */
async function threeInstances(t: Test, env: Record<string, string>, start: (env: Record<string, string>) => Promise<Harness>): Promise<Harness[]> {
  const prefix = testPrefix();
  const redis = await adminClient();
  t.teardown(async () => {
    await deleteKeys(redis, prefix);
    await redis.close();
  });
  const shared = { ...env, REDIS_URL, GATEWAY_REDIS_PREFIX: prefix };
  const first = await start(shared);
  t.teardown(() => first.close());
  const instances = [first];
  for (let i = 0; i < 2; i++) {
    const other = await start({ ...shared, DATABASE_URL: `file:${join(first.dataDir, 'gateway.db')}` });
    t.teardown(() => other.close());
    instances.push(other);
  }
  return instances;
}

t.test('failed key authentications from one address reach the per-address budget over three instances', async (t) => {
  const instances = await threeInstances(t, { GATEWAY_AUTH_FAILURES_PER_MINUTE: '4' }, (env) => startHarness({ env }));
  const statuses: number[] = [];
  for (let i = 0; i < 15; i++) {
    const res = await call(`${instances[i % 3]!.url}/gateway/v1/messages`, { body: messagesBody, headers: bearer(`mgw_wrong_key_${i}`) });
    statuses.push(res.status);
  }
  const refusedAsInvalid = statuses.filter((s) => s === 401).length;
  // Alone, each instance would answer 4 guesses with 401 (12 in all). Over the fleet: the budget of 4, plus
  // one more per instance before its own failure's reply tells it the address is over budget (7), give or
  // take a recording that timed out on a busy host.
  t.ok(refusedAsInvalid >= 4 && refusedAsInvalid < 12, `fewer guesses looked up than three separate budgets: ${statuses.join(' ')}`);
  t.same(statuses.slice(-3), [429, 429, 429], 'then every instance refuses the address');
});

t.test('five failed sign-ins from one address over three instances refuse it everywhere', async (t) => {
  // Without the account delay, so the five guesses may follow each other at once (its fleet-wide rule is
  // asserted by the unit test); the (account, address) rule is the default: 5 per 15 minutes.
  const extra: Pick<DashboardDeps, 'throttle'> = { throttle: { account: { afterFailures: 1000, baseMs: 1000, maxMs: 1000, windowMs: 60_000 } } };
  const instances = await threeInstances(t, { GATEWAY_TRUSTED_PROXIES: '127.0.0.1' }, (env) => startDashboardHarness(extra, { env }));
  const op = new AdminClient(instances[0]!.url);
  await op.signIn({ token: ADMIN_TOKEN });
  const { customer } = await op.ok('POST', '/customers', { name: 'acme' });
  await op.ok('POST', `/customers/${customer.id}/users`, { email: 'bo@acme.example', password: PASSWORD });

  const signIn = (i: number, address: string, password: string) =>
    new AdminClient(instances[i]!.url).send('POST', '/session', { email: 'bo@acme.example', password }, { 'x-forwarded-for': address });
  for (let i = 0; i < 5; i++) t.equal((await signIn(i % 3, '203.0.113.7', `guess ${i} xxxxxxx`)).status, 401, `guess ${i + 1} on instance ${i % 3} is refused as wrong`);
  for (let i = 0; i < 3; i++) {
    const res = await signIn(i, '203.0.113.7', PASSWORD);
    t.equal(res.status, 429, `instance ${i} throttles the guessing address, even with the right password`);
    t.ok(Number(res.headers['retry-after']) > 0, 'retry-after says how long');
  }
  t.equal((await signIn(2, '198.51.100.4', PASSWORD)).status, 200, 'the right password from another address still signs in');
});
