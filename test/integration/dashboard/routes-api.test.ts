// The operators' view of upstream routes through the admin API: every provider with its type, every
// route with weight, priority, state, cool-down, headroom and breaker, read from the gateway's own
// route table as requests change it; operators only, and never a credential.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, callMessages, signedInCustomerUser, startDashboardHarness } from './dashboard-harness.js';
import { startAccounts } from '../routes/fixtures/accounts.js';

t.test('GET /admin/api/routes shows providers and routes as they are now', async (t) => {
  const accounts = await startAccounts(t, [{ id: 'main', weight: 3 }, { id: 'spare', priority: 2 }]);
  const h = await startDashboardHarness({}, { env: accounts.env });
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });

  const before = await operator.ok('GET', '/routes');
  t.same(before.providers, [{ id: 'main', type: 'anthropic', routes: 1 }, { id: 'spare', type: 'anthropic', routes: 1 }]);
  t.match(before.routes, [
    { name: 'claude-sonnet-4-6@main', model: 'claude-sonnet-4-6', provider: 'main', weight: 3, priority: 1, state: 'ready', coolingUntil: null, headroom: null, circuit: 'closed' },
    { name: 'claude-sonnet-4-6@spare', provider: 'spare', weight: 1, priority: 2, state: 'ready' },
  ]);

  const { key } = await h.createKey();
  accounts.sims.get('main')!.injectFault({ kind: 'status', status: 429, retryAfter: 40 });
  t.equal((await callMessages(h.url, key)).status, 200, 'served by the spare');
  const after = await operator.ok('GET', '/routes');
  const main = after.routes.find((r: { name: string }) => r.name === 'claude-sonnet-4-6@main');
  const spare = after.routes.find((r: { name: string }) => r.name === 'claude-sonnet-4-6@spare');
  t.equal(main.state, 'throttled');
  const left = Date.parse(main.coolingUntil) - Date.parse(after.at);
  t.ok(left > 30_000 && left <= 40_000, `cooling until its retry-after (${left} ms left)`);
  t.equal(spare.state, 'ready');
  t.match(spare.headroom, { requests: Number }, 'the headroom the spare account reported');
  t.notMatch(JSON.stringify(after), /sk-|ROUTE_TEST_KEY/, 'no credential and no key variable name');
});

t.test('only operators may read the routes', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  const { user: ann } = await signedInCustomerUser(operator, 'acme', 'ann@acme.example', 'a long enough password');
  t.equal((await ann.send('GET', '/routes')).status, 403);
  t.equal((await new AdminClient(h.url).send('GET', '/routes')).status, 401);
});
