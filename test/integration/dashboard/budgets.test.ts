// Spend budgets through the admin API: operators set a customer's budget and a key's (at creation); both
// come back with what was spent this period and the 80% warning; customer users see their own but may not
// set the customer's; the gateway applies a change at once; the Usage answer carries cost per key.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, callMessages, startDashboardHarness } from './dashboard-harness.js';
import { waitFor } from '../../helpers/wait.js';

const PASSWORD = 'correct horse battery staple';

t.test('budgets through the admin API', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  const { customer: acme } = await operator.ok('POST', '/customers', { name: 'acme' });
  const budgetPath = `/customers/${acme.id}/budget`;
  t.match(acme, { budget: null, budgetStatus: null });

  const set = await operator.send('POST', budgetPath, { amountUsd: '0.0001', amountPeriod: 'day', amountMode: 'hard' });
  t.equal(set.status, 200, set.text);
  t.match(set.json().customer, {
    budget: { amountUsd: '0.0001', period: 'day', mode: 'hard' },
    budgetStatus: { amountUsd: '0.0001', spentUsd: '0.00', remainingUsd: '0.0001', utilisation: 0, warning: false, resetsAt: /T00:00:00\.000Z$/ },
  });
  t.match(await h.built.stores.keys.getCustomer(acme.id), { budget: { amountNanoUsd: 100_000, period: 'day', mode: 'hard' } });

  const created = await operator.send('POST', `/customers/${acme.id}/keys`, { name: 'ci', budgetUsd: '5', budgetMode: 'soft' });
  t.equal(created.status, 201, created.text);
  t.match(created.json().key, { budget: { amountUsd: '5.00', period: 'month', mode: 'soft' } });
  const key = created.json().secret as string;

  // A request reserves more than $0.0001 (16 output tokens at $15 per million alone are $0.00024).
  const refused = await callMessages(h.url, key);
  t.equal(refused.status, 429, 'the hard customer budget refuses, whatever the key budget says');
  t.match(refused.json().error.message, /customer "acme", 0\.0001 USD per day/);
  // Soft: served and counted, past 80% (past 100% even) after two requests.
  await operator.ok('POST', budgetPath, { amountUsd: '0.0001', amountPeriod: 'day', amountMode: 'soft' });
  for (let i = 0; i < 2; i++) t.equal((await callMessages(h.url, key)).status, 200, 'soft: served');
  // Spent so far is read from the usage rows, written in batches: wait for both served requests' rows, so
  // every figure below counts the same requests (a batch written between the two would split them).
  const servedRows = async () => {
    const [row] = (await operator.ok('GET', `/customers/${acme.id}/usage`)).byKey;
    return row === undefined ? 0 : row.requests - row.errors;
  };
  await waitFor(async () => (await servedRows()) === 2, 10_000);
  t.equal((await operator.ok('GET', `/customers/${acme.id}`)).customer.budgetStatus.warning, true, 'past 80%: the warning');
  const status = (await operator.ok('GET', `/customers/${acme.id}`)).customer.budgetStatus;
  t.ok(status.utilisation >= 0.8, `warning from 80% (${status.utilisation})`);
  const [listed] = (await operator.ok('GET', '/customers')).customers;
  t.match(listed, { budgetStatus: { warning: true } }, 'the list carries it too');
  const { keys } = await operator.ok('GET', `/customers/${acme.id}/keys`);
  t.match(keys, [{ name: 'ci', budgetStatus: { amountUsd: '5.00', mode: 'soft', warning: false, spentUsd: status.spentUsd } }], 'the key\'s own status');

  const usage = await operator.ok('GET', `/customers/${acme.id}/usage`);
  t.match(usage.byKey, [{ name: 'ci', prefix: /^mgw_/, requests: /\d/, costUsd: status.spentUsd }], 'cost per key');

  await t.test('customer users see the budget; only operators set it', async (t) => {
    await operator.ok('POST', `/customers/${acme.id}/users`, { email: 'ann@acme.example', password: PASSWORD });
    const ann = new AdminClient(h.url);
    t.equal((await ann.signIn({ email: 'ann@acme.example', password: PASSWORD })).status, 200);
    t.match((await ann.ok('GET', `/customers/${acme.id}`)).customer, { budget: { amountUsd: '0.0001' }, budgetStatus: { warning: true } });
    t.equal((await ann.send('POST', budgetPath, { amountUsd: '1000' })).status, 403);
  });

  await t.test('raised: the gateway serves again at once; removed: none', async (t) => {
    await operator.ok('POST', budgetPath, { amountUsd: 1000, amountPeriod: 'day' });
    t.equal((await callMessages(h.url, key)).status, 200);
    const cleared = await operator.ok('POST', budgetPath, { amountUsd: null });
    t.match(cleared.customer, { budget: null, budgetStatus: null });
  });

  await t.test('bad values name their field; nothing changes', async (t) => {
    for (const [body, param] of [
      [{ amountUsd: '0' }, 'amountUsd'],
      [{ amountUsd: '1.0000000001' }, 'amountUsd'],
      [{ amountUsd: 'ten' }, 'amountUsd'],
      [{ amountUsd: '5', amountPeriod: 'week' }, 'amountPeriod'],
      [{ amountUsd: '5', amountMode: 'strict' }, 'amountMode'],
    ] as const) {
      const res = await operator.send('POST', budgetPath, body);
      t.equal(res.status, 400, JSON.stringify(body));
      t.equal(res.json().error.param, param, JSON.stringify(body));
    }
    const badKey = await operator.send('POST', `/customers/${acme.id}/keys`, { name: 'x', budgetUsd: '-1' });
    t.equal(badKey.status, 400);
    t.equal(badKey.json().error.param, 'budgetUsd');
    t.equal((await operator.send('POST', '/customers/cus_nope/budget', { amountUsd: '1' })).status, 404);
    t.match(await h.built.stores.keys.getCustomer(acme.id), { budget: null });
  });
});
