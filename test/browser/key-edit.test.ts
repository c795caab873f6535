// The Edit action of Customer > API Keys in Chromium: an operator opens a key's Edit form (its settings
// filled in), changes some fields and saves; only those fields are sent, so a change made meanwhile
// elsewhere is kept; the server's refusal shows in the form; a customer user edits its own key and is
// held to its customer's budget.
import { mkdirSync } from 'node:fs';
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from '../integration/dashboard/dashboard-harness.js';
import { launchChromium } from './chromium.js';
import { signInAsOperator, switchToCustomerUser } from './sign-in.js';

const ARTIFACTS = 'test-artifacts';
const HAIKU = 'claude-haiku-4-5-20251001';
const EMAIL = 'ann@acme.example';
const PASSWORD = 'a long enough password';

const browser = await launchChromium();
if (typeof browser === 'string') console.error(`\n*** SKIPPING the key edit browser test: ${browser} ***\n`);

t.test('editing a key in Chromium', { skip: typeof browser === 'string' ? browser : false }, async (t) => {
  if (typeof browser === 'string') return;
  t.teardown(() => browser.close());
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  mkdirSync(ARTIFACTS, { recursive: true });
  const api = new AdminClient(h.url);
  await api.signIn({ token: ADMIN_TOKEN });
  const { customer: acme } = await api.ok('POST', '/customers', { name: 'acme' });
  await api.ok('POST', `/customers/${acme.id}/budget`, { amountUsd: '10' });
  await api.ok('POST', `/customers/${acme.id}/users`, { email: EMAIL, password: PASSWORD });
  const { key } = await api.ok('POST', `/customers/${acme.id}/keys`, { name: 'ci', rpm: 50, budgetUsd: '2', budgetPeriod: 'day' });
  const stored = () => h.built.stores.keys.getKey(key.id);

  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  const keysUrl = `${h.url}/dashboard/customers/${encodeURIComponent(acme.id)}/keys`;

  await t.test('an operator edits a key: only the fields changed are sent', async (t) => {
    await signInAsOperator(page, h.url);
    await page.goto(keysUrl);
    await page.getByRole('button', { name: 'Edit key ci' }).click();
    const form = page.getByRole('form', { name: 'Edit key ci' });
    await form.waitFor();
    t.equal(await form.getByLabel('Name').inputValue(), 'ci', 'filled in: name');
    t.equal(await form.getByLabel('Requests per minute (optional)').inputValue(), '50', 'rpm');
    t.equal(await form.getByLabel('Spend budget (USD, optional)').inputValue(), '2.00', 'budget');
    t.equal(await form.getByLabel('Budget period (UTC)').inputValue(), 'day', 'budget period');

    // Meanwhile someone else sets the key's tpm: saving this form must not undo it.
    await api.ok('PATCH', `/customers/${acme.id}/keys/${key.id}`, { tpm: 999 });
    await form.getByLabel('Requests per minute (optional)').fill('7');
    await form.getByRole('checkbox', { name: new RegExp(HAIKU) }).check();
    await form.getByLabel('When spent').selectOption('soft');
    await page.screenshot({ path: `${ARTIFACTS}/api-keys-edit.png`, fullPage: true });
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Key ci saved.').waitFor();
    t.equal(await form.count(), 0, 'the form closes');
    t.match(await page.getByRole('row', { name: /ci/ }).textContent(), /7 \/ 999/, 'the table shows the new limits');
    t.match(await stored(), { name: 'ci', rpm: 7, tpm: 999, allowedModels: [HAIKU], budget: { amountNanoUsd: 2_000_000_000, period: 'day', mode: 'soft' } });
  });

  await t.test('a refusal shows in the form and changes nothing; Cancel closes it', async (t) => {
    const before = await stored();
    await page.getByRole('button', { name: 'Edit key ci' }).click();
    const form = page.getByRole('form', { name: 'Edit key ci' });
    await form.getByLabel('Expiry date (UTC, optional)').fill('2001-01-01');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText(/in the past/).waitFor();
    t.same(await stored(), before, 'nothing changed');
    await form.getByRole('button', { name: 'Cancel' }).click();
    t.equal(await form.count(), 0);
  });

  await t.test('a customer user edits its own key, within its customer\'s budget', async (t) => {
    await switchToCustomerUser(page, EMAIL, PASSWORD);
    await page.getByRole('button', { name: 'Edit key ci' }).click();
    const form = page.getByRole('form', { name: 'Edit key ci' });
    await form.getByLabel('Spend budget (USD, optional)').fill('11');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText(/customer's budget is 10\.00 USD per month/).waitFor();
    t.match(await stored(), { budget: { amountNanoUsd: 2_000_000_000 } }, 'refused: unchanged');
    await form.getByLabel('Spend budget (USD, optional)').fill('10');
    await form.getByLabel('Name').fill('ci-ann');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Key ci-ann saved.').waitFor();
    t.match(await stored(), { name: 'ci-ann', rpm: 7, budget: { amountNanoUsd: 10_000_000_000, period: 'day', mode: 'soft' } });
  });

  t.same(pageErrors, [], 'no script errors');
});
