// The Audit page in a real browser: an operator sees every customer's entries (Audit in the top bar) and
// can narrow them to one customer; a customer user sees its own customer's entries under its Audit tab,
// the refused sign-in on its account included, and nothing of another customer's, even by URL.
// Screenshots go to test-artifacts/.
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import type { Page } from 'playwright-core';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from '../integration/dashboard/dashboard-harness.js';
import { launchChromium } from './chromium.js';
import { signInAsOperator, switchToCustomerUser } from './sign-in.js';

const ARTIFACTS = 'test-artifacts';
const PASSWORD = 'a long enough password';

const browser = await launchChromium();
if (typeof browser === 'string') console.error(`\n*** SKIPPING the audit page browser test: ${browser} ***\n`);

/** The text of each row of the entries table, header excluded. */
async function rowTexts(page: Page): Promise<string[]> {
  return page.getByRole('region', { name: 'Audit entries' }).locator('tbody tr').allTextContents();
}

t.test('the Audit page: operators see all, a customer user its own customer only', { skip: typeof browser === 'string' ? browser : false }, async (t) => {
  if (typeof browser === 'string') return;
  t.teardown(() => browser.close());
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  mkdirSync(ARTIFACTS, { recursive: true });

  const alphaKeyName = `alpha-key-${randomBytes(4).toString('hex')}`;
  const betaKeyName = `beta-key-${randomBytes(4).toString('hex')}`;
  const setup = new AdminClient(h.url);
  t.equal((await setup.signIn({ token: ADMIN_TOKEN })).status, 200);
  const { customer: alpha } = await setup.ok('POST', '/customers', { name: 'alpha' });
  const { customer: beta } = await setup.ok('POST', '/customers', { name: 'beta' });
  await setup.ok('POST', `/customers/${alpha.id}/users`, { email: 'ann@alpha.example', password: PASSWORD });
  await setup.ok('POST', `/customers/${alpha.id}/keys`, { name: alphaKeyName });
  await setup.ok('POST', `/customers/${beta.id}/keys`, { name: betaKeyName });
  t.equal((await new AdminClient(h.url).signIn({ email: 'ann@alpha.example', password: 'not the password at all' })).status, 401);

  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));

  await t.test('an operator reads every entry, then one customer', async (t) => {
    await signInAsOperator(page, h.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    t.equal(new URL(page.url()).pathname, '/dashboard/audit');
    await page.getByRole('region', { name: 'Audit entries' }).waitFor();
    const rows = await rowTexts(page);
    t.match(rows[0], /operator.*session\.sign_in(?!_)/, 'newest first: this sign-in');
    t.ok(rows.some((r) => r.includes('key.create') && r.includes('beta') && r.includes(betaKeyName)), "beta's key");
    t.ok(rows.some((r) => r.includes('key.create') && r.includes('alpha') && r.includes(alphaKeyName)), "alpha's key");
    t.ok(rows.some((r) => r.includes('ann@alpha.example') && r.includes('session.sign_in_failed')), 'the refused sign-in');
    t.ok(rows.some((r) => r.includes('user.create') && r.includes('email: "ann@alpha.example"')), 'the user created');
    const unlabelled = await page.evaluate<string[]>(
      `[...document.querySelectorAll('input, select, textarea')].filter((el) => el.labels.length === 0 && !el.getAttribute('aria-label')).map((el) => el.outerHTML)`,
    );
    t.same(unlabelled, [], 'every control is labelled');
    await page.screenshot({ path: `${ARTIFACTS}/audit-operator.png`, fullPage: true });

    await page.getByRole('combobox', { name: 'Customer' }).selectOption({ label: 'beta' });
    await page.getByRole('button', { name: 'Show entries' }).click();
    await page.waitForURL(/customerId=/);
    await page.waitForFunction(`[...document.querySelectorAll('tbody tr')].every((tr) => tr.textContent.includes('beta'))`);
    const betaRows = await rowTexts(page);
    t.equal(betaRows.length, 2, 'beta: created, and its key');
    t.ok(betaRows.every((r) => !r.includes(alphaKeyName)), "nothing of alpha's");
  });

  await t.test("a customer user reads its own customer's entries, and cannot reach another's", async (t) => {
    await switchToCustomerUser(page, 'ann@alpha.example', PASSWORD);
    t.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, 'no operator navigation');
    await page.getByRole('navigation', { name: 'Customer' }).getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'alpha › Audit' }).waitFor();
    t.equal(new URL(page.url()).pathname, `/dashboard/customers/${alpha.id}/audit`);
    await page.getByRole('region', { name: 'Audit entries' }).waitFor();
    const rows = await rowTexts(page);
    t.match(rows[0], /ann@alpha\.example.*session\.sign_in(?!_)/, 'its own sign-in, newest first');
    t.ok(rows.some((r) => r.includes('session.sign_in_failed')), 'the refused sign-in on its account');
    t.ok(rows.some((r) => r.includes(alphaKeyName)), "the operator's change to its keys");
    t.equal(await page.getByRole('combobox', { name: 'Customer' }).count(), 0, 'no customer filter');
    t.notOk((await page.content()).includes(betaKeyName), "nothing of beta's on the page");
    await page.screenshot({ path: `${ARTIFACTS}/audit-customer.png`, fullPage: true });

    await page.goto(`${h.url}/dashboard/customers/${beta.id}/audit`);
    await page.getByText('No such customer.').waitFor();
    const content = await page.content();
    t.notOk(content.includes(betaKeyName), "another customer's entries are not shown by URL");
    t.notOk(content.includes('beta'), "nor its name");
  });

  t.same(pageErrors, [], 'no script errors');
});
