// The operators' Overview page in a real browser, after real requests through the gateway: this month's
// spend with the top customer and model, the budget nearly spent, the last hour's requests, the routes;
// a customer user has no link to it and is refused it by URL. Screenshots go to test-artifacts/.
import { mkdirSync } from 'node:fs';
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, callMessages, signedInCustomerUser, startDashboardHarness, TEST_MODEL } from '../integration/dashboard/dashboard-harness.js';
import { waitFor } from '../helpers/wait.js';
import { launchChromium } from './chromium.js';
import { signInAsOperator, switchToCustomerUser } from './sign-in.js';

const ARTIFACTS = 'test-artifacts';
const PASSWORD = 'a long enough password';

const browser = await launchChromium();
if (typeof browser === 'string') console.error(`\n*** SKIPPING the overview page browser test: ${browser} ***\n`);

t.test('the Overview page: operators see the whole gateway, customer users do not', { skip: typeof browser === 'string' ? browser : false }, async (t) => {
  if (typeof browser === 'string') return;
  t.teardown(() => browser.close());
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  mkdirSync(ARTIFACTS, { recursive: true });

  const acme = await h.createKey({ customer: 'acme', name: 'acme-ci', budget: { amountNanoUsd: 100_000, period: 'month', mode: 'soft' } });
  const beta = await h.createKey({ customer: 'beta', name: 'beta-ci' });
  for (let i = 0; i < 2; i++) t.equal((await callMessages(h.url, acme.key)).status, 200);
  t.equal((await callMessages(h.url, beta.key, 'claude-haiku-4-5-20251001')).status, 200);
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  // The usage rows are written in batches: the page is read once they are all in.
  await waitFor(async () => (await operator.ok('GET', '/overview')).lastHour.requests === 3, 10_000);
  const expected = await operator.ok('GET', '/overview');
  const { user: ann } = await signedInCustomerUser(operator, 'gamma', 'ann@gamma.example', PASSWORD);
  await ann.send('DELETE', '/session');

  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));

  await t.test('an operator reads the overview from the first entry of the top bar', async (t) => {
    await signInAsOperator(page, h.url);
    const nav = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    t.equal(await nav.first().textContent(), 'Overview', 'the first entry');
    await nav.first().click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    t.equal(new URL(page.url()).pathname, '/dashboard/overview');

    await page.getByRole('region', { name: 'Top customers' }).waitFor();
    const total = (key: string) => page.locator(`dd[data-total="${key}"]`).textContent();
    t.equal(await total('costUsd'), expected.spend.costUsd, 'the month\'s cost in USD, as the API sums it');
    t.equal(await total('requests'), '3');
    t.equal(await total('lastHourRequests'), '3');
    t.equal(await total('lastHourErrors'), '0');
    const customers = await page.getByRole('region', { name: 'Top customers' }).locator('tbody tr').allTextContents();
    t.match(customers, [new RegExp(`^acme\\s*2\\s*${expected.topCustomers[0].costUsd.replace('.', '\\.')}$`), /^beta\s*1/], 'acme spent most');
    const models = await page.getByRole('region', { name: 'Top models' }).locator('tbody tr').allTextContents();
    t.match(models, [new RegExp(`^${TEST_MODEL}\\s*2`), /^claude-haiku-4-5-20251001\s*1/], 'Sonnet first');
    const budget = await page.getByRole('region', { name: 'Budgets near their end' }).locator('tbody tr').allTextContents();
    t.match(budget, [/acme.*acme-ci.*mgw_.*of 0\.0001 USD \/ month \(soft\) · \d+%/], "acme's key past its budget");
    t.ok(await page.getByRole('region', { name: 'Routes' }).isVisible(), 'the routes table');
    await page.getByRole('region', { name: 'Top customers' }).getByRole('link', { name: 'acme' }).click();
    await page.getByRole('heading', { name: 'acme › Usage' }).waitFor();
    t.pass('a customer links to its Usage page');
    await page.goBack();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/overview.png`, fullPage: true });
  });

  await t.test('a customer user has no Overview and is refused it by URL', async (t) => {
    await switchToCustomerUser(page, 'ann@gamma.example', PASSWORD);
    t.equal(await page.getByRole('link', { name: 'Overview' }).count(), 0, 'no link to it');
    await page.goto(`${h.url}/dashboard/overview`);
    await page.getByText('Only operators may do this.').waitFor();
    const content = await page.content();
    t.notOk(content.includes('acme'), 'no other customer named');
    t.notOk(content.includes(expected.spend.costUsd), 'no figure');
  });

  t.same(pageErrors, [], 'no script errors');
});
