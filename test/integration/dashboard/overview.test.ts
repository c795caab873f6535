// The operators' overview through the admin API, after real requests through the gateway to the simulator:
// this month's spend, the top customers and models, the budgets nearly spent, the last hour's requests and
// errors, and the routes, each checked against the usage rows the requests left and the Routes answer.
// Operators only.
import t from 'tap';
import { dayOf } from '../../../src/metering/usage-store.js';
import { formatUsd } from '../../../src/metering/cost.js';
import { waitFor } from '../../helpers/wait.js';
import { AdminClient, ADMIN_TOKEN, callMessages, signedInCustomerUser, startDashboardHarness, TEST_MODEL } from './dashboard-harness.js';

const PASSWORD = 'correct horse battery staple';
const OTHER_MODEL = 'claude-haiku-4-5-20251001';
/** A key's soft budget of a hundredth of a cent a day: one request spends past it, and is still served. */
const TINY_SOFT = { amountNanoUsd: 100_000, period: 'day', mode: 'soft' } as const;
const TINY_HARD = { ...TINY_SOFT, mode: 'hard' } as const;

t.test('GET /admin/api/overview sums the requests the gateway served', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });

  const acme = await h.createKey({ customer: 'acme', name: 'acme-ci', budget: TINY_SOFT });
  const beta = await h.createKey({ customer: 'beta', name: 'beta-ci' });
  const gamma = await h.createKey({ customer: 'gamma', name: 'gamma-ci', budget: TINY_HARD });
  for (let i = 0; i < 3; i++) t.equal((await callMessages(h.url, acme.key)).status, 200, 'acme: served (a soft budget)');
  t.equal((await callMessages(h.url, beta.key, OTHER_MODEL)).status, 200, 'beta: served');
  // Reserves more than its hard budget: refused with 429, one error row, no cost.
  t.equal((await callMessages(h.url, gamma.key)).status, 429, 'gamma: refused by its budget');
  const made = 5;

  const read = () => operator.ok('GET', '/overview');
  await waitFor(async () => (await read()).lastHour.requests === made, 10_000);
  const view = await read();
  const now = Date.parse(view.at);
  t.match(view.period, { from: `${dayOf(now).slice(0, 7)}-01`, to: new RegExp(`^${dayOf(now).slice(0, 7)}-\\d\\d$`) }, 'this calendar month, UTC');

  // Every figure against the rows the usage store holds for the month (its grouped query, another path).
  const rows = await h.built.stores.usage.query({ since: view.period.from, until: view.period.to });
  const sum = (pick: (r: (typeof rows)[number]) => boolean) => rows.filter(pick).reduce((s, r) => s + r.costNanoUsd, 0n);
  const requests = (pick: (r: (typeof rows)[number]) => boolean) => rows.filter(pick).reduce((s, r) => s + r.requests, 0);
  t.match(view.spend, { requests: made, errors: 1, costUsd: formatUsd(sum(() => true)) });
  t.ok(sum(() => true) > 0n, 'the simulator\'s answers cost something');
  const acmeCost = sum((r) => r.customerName === 'acme');
  const betaCost = sum((r) => r.customerName === 'beta');
  t.ok(acmeCost > betaCost, 'three Sonnet requests cost more than one Haiku request');
  t.same(view.topCustomers.map((c: { customerName: string }) => c.customerName), ['acme', 'beta', 'gamma']);
  t.match(view.topCustomers, [
    { customerName: 'acme', requests: 3, costUsd: formatUsd(acmeCost) },
    { customerName: 'beta', requests: 1, costUsd: formatUsd(betaCost) },
    { customerName: 'gamma', requests: 1, costUsd: '0.00' },
  ]);
  t.same(view.topModels, [
    { model: TEST_MODEL, requests: requests((r) => r.model === TEST_MODEL), costUsd: formatUsd(sum((r) => r.model === TEST_MODEL)) },
    { model: OTHER_MODEL, requests: 1, costUsd: formatUsd(betaCost) },
  ]);
  t.equal(view.budgetWarningPercent, 80);
  t.match(view.budgetsNearEnd, [
    { customerName: 'acme', keyName: 'acme-ci', keyId: acme.id, keyPrefix: /^mgw_/, amountUsd: '0.0001', period: 'day', mode: 'soft', spentUsd: formatUsd(acmeCost), warning: true },
  ]);
  t.equal(view.budgetsNearEnd.length, 1, 'gamma spent nothing of its budget: not listed');
  t.ok(view.budgetsNearEnd[0].utilisation > 1, 'past all of it');
  t.same(view.lastHour, { since: new Date(now - 3_600_000).toISOString(), requests: made, errors: 1 });

  const routes = await operator.ok('GET', '/routes');
  t.same({ ...view.routes, at: null }, { ...routes, at: null }, 'the routes as the Routes page shows them');
  t.notMatch(JSON.stringify(view), new RegExp(`${acme.key}|${beta.key}|sk-`), 'never a key or a credential');
});

t.test('only operators may read the overview', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  const { user: ann } = await signedInCustomerUser(operator, 'acme', 'ann@acme.example', PASSWORD);
  const refused = await ann.send('GET', '/overview');
  t.equal(refused.status, 403);
  t.notMatch(refused.text, /costUsd|topCustomers/, 'no figure in the refusal');
  t.equal((await new AdminClient(h.url).send('GET', '/overview')).status, 401, 'signed out: 401');
  t.equal((await operator.send('GET', '/overview')).status, 200);
});
