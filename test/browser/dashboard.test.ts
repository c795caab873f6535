// The dashboard in a real browser: an operator sets up a customer, its spend budget and a user; the user
// creates a key with a budget, copies it, uses it on both surfaces, sees the requests and their cost under
// Usage and the 80% budget warning, revokes the key, and the key stops working.
// Screenshots of every page go to test-artifacts/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { Page, Response } from 'playwright-core';
import { ADMIN_TOKEN, callChat as chat, callMessages as messages, startDashboardHarness, TEST_MODEL as MODEL } from '../integration/dashboard/dashboard-harness.js';
import { launchChromium } from './chromium.js';

const ARTIFACTS = 'test-artifacts';
const EMAIL = 'dana@acme.example';
const PASSWORD = 'a long enough password';

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
}

/** Every form control has a label a screen reader announces, and nothing overflows the viewport sideways. */
async function checkPage(t: Test, page: Page, name: string): Promise<void> {
  // Browser-side code as strings: this project compiles without the DOM library.
  const unlabelled = await page.evaluate<string[]>(
    `[...document.querySelectorAll('input, select, textarea')].filter((el) => el.labels.length === 0 && !el.getAttribute('aria-label')).map((el) => el.outerHTML)`,
  );
  t.same(unlabelled, [], `${name}: every control is labelled`);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  t.ok(overflow <= 0, `${name}: no sideways scrolling at ${page.viewportSize()?.width} px (overflow ${overflow})`);
}

const browser = await launchChromium();
if (typeof browser === 'string') console.error(`\n*** SKIPPING the dashboard browser test: ${browser} ***\n`);

t.test('dashboard end to end in Chromium', { skip: typeof browser === 'string' ? browser : false }, async (t) => {
  if (typeof browser === 'string') return;
  t.teardown(() => browser.close());
  // One model without a price: the dashboard marks it wherever it names it.
  const modelsFile = join(t.testdir(), 'models.json');
  writeFileSync(modelsFile, JSON.stringify({ models: [{ id: 'claude-opus-4-7', prices: null }] }));
  const h = await startDashboardHarness({}, { env: { GATEWAY_MODELS_FILE: modelsFile } });
  t.teardown(() => h.close());
  mkdirSync(ARTIFACTS, { recursive: true });
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));

  await t.test('an operator signs in with the keyboard and sets up a customer and a user', async (t) => {
    await page.goto(`${h.url}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in to model-gateway' }).waitFor();
    t.equal(new URL(page.url()).pathname, '/dashboard/sign-in');
    await checkPage(t, page, 'sign-in');
    await shot(page, 'sign-in');
    await page.getByLabel('Admin token').focus();
    await page.keyboard.type(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Customers' }).waitFor();

    await page.getByLabel('Customer name').fill('acme');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.getByRole('heading', { name: 'acme › API Keys' }).waitFor();
    await page.getByRole('navigation', { name: 'Customer' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'acme › Users' }).waitFor();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Initial password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('cell', { name: EMAIL, exact: true }).waitFor();
    await checkPage(t, page, 'users');
    await shot(page, 'users');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('link', { name: 'acme' }).waitFor();
    // A soft budget so small that the two requests below pass 80% of it (and more).
    await page.getByLabel('Budget (USD)').fill('0.0001');
    await page.getByLabel('Budget period (UTC)').selectOption('day');
    await page.getByLabel('When spent').selectOption('soft');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await page.getByRole('cell', { name: /0\.0001 USD \/ day \(soft\)/ }).waitFor();
    t.match(await page.getByRole('row', { name: /acme/ }).textContent(), /0\.00 of 0\.0001 USD \/ day \(soft\) · 0%/, 'the budget and what was spent of it');
    await checkPage(t, page, 'customers');
    await shot(page, 'customers');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to model-gateway' }).waitFor();
  });

  let secret = '';
  await t.test('the customer user signs in, creates a key and copies it', async (t) => {
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'acme › API Keys' }).waitFor();
    const tabs = page.getByRole('navigation', { name: 'Customer' });
    t.same(await tabs.getByRole('link').allTextContents(), ['API Keys', 'Usage', 'Audit'], 'a customer user has no Users tab; its own Audit tab');

    await page.getByLabel('Name', { exact: true }).fill('laptop');
    t.match(await page.getByLabel(/Claude Opus 4\.7/).locator('xpath=..').textContent(), /no price: counted at \$0/, 'the model without a price is marked');
    t.notMatch(await page.getByLabel(/Claude Sonnet 4\.6/).locator('xpath=..').textContent(), /no price/, 'a priced model is not');
    await page.getByLabel(/Claude Sonnet 4\.6/).check();
    await page.getByLabel('Requests per minute (optional)').fill('100');
    await page.getByLabel('Spend budget (USD, optional)').fill('5');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('It will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied.').waitFor();
    secret = await page.evaluate<string>('navigator.clipboard.readText()');
    t.match(secret, /^mgw_[A-Za-z0-9]+_[A-Za-z0-9]+$/, 'the clipboard holds the key');
    t.equal(await page.getByLabel('Your new API key').inputValue(), secret);
    await checkPage(t, page, 'api-keys');
    await shot(page, 'api-keys-new-key');
    const row = page.getByRole('row', { name: /laptop/ });
    t.match(await row.textContent(), /claude-sonnet-4-6.*100 \/ —.*0\.00 of 5\.00 USD \/ month \(hard\) · 0%.*active/);
  });

  await t.test('the key works on both surfaces and its requests appear under Usage', async (t) => {
    t.equal((await messages(h.url, secret)).status, 200, 'messages surface');
    t.equal((await chat(h.url, secret)).status, 200, 'chat-completions surface');
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'acme › Usage' }).waitFor();
    const requests = page.locator('[data-total="requests"]');
    // Usage records are written in batches: ask again until both requests are in.
    while ((await requests.textContent()) !== '2') {
      await page.waitForTimeout(100);
      await page.getByRole('button', { name: 'Show usage' }).click();
    }
    t.equal(await page.getByRole('cell', { name: MODEL }).count(), 2, 'the model appears per model and per day');
    t.ok(await page.locator('svg.chart rect').count() >= 1, 'the chart has a bar');
    t.not(await page.locator('[data-total="inputTokens"]').textContent(), '0');
    t.match(await page.locator('[data-total="costUsd"]').textContent(), /^[0-9]+\.[0-9]{2,9}$/, 'the cost, as the API gave it');
    t.equal(await page.getByRole('table', { name: 'Usage per key' }).getByRole('cell', { name: /laptop/ }).count(), 1, 'the key has its row');
    await page.getByLabel('Chart shows').selectOption('cost');
    t.ok(await page.locator('svg.chart rect').count() >= 1, 'the chart by cost has a bar');
    await checkPage(t, page, 'usage');
    await shot(page, 'usage');

    // The customer's soft budget is past 80% now: every customer page warns.
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { name: 'acme › API Keys' }).waitFor();
    const warning = page.getByText(/^Customer acme has spent \d+% of its budget \([0-9.]+ of 0\.0001 USD this day\)\. Requests past it are allowed and flagged\./);
    await warning.waitFor();
    t.match(await page.getByRole('row', { name: /laptop/ }).textContent(), /[0-9.]+ of 5\.00 USD \/ month \(hard\)/, 'the key\'s own budget shows its spend');
    await shot(page, 'budget-warning');
  });

  await t.test('after a reload the full key appears nowhere', async (t) => {
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { name: 'acme › API Keys' }).waitFor();
    // The page's own calls finish first: a body that arrives after the reload began is gone (a flake seen under load).
    await page.waitForLoadState('networkidle');
    // Every body read gets its rejection handled here and the listener goes before the next step: a call the
    // page makes after the row shows, whose body the next navigation discards, would otherwise reject unhandled
    // and end the whole file ("test unfinished", seen once under load).
    const bodies: Promise<string | Error>[] = [];
    const collect = (res: Response): void => {
      if (new URL(res.url()).pathname.startsWith('/admin/api')) bodies.push(res.text().catch((err: Error) => err));
    };
    page.on('response', collect);
    await page.reload();
    await page.getByRole('row', { name: /laptop/ }).waitFor();
    page.off('response', collect);
    const settled = await Promise.all(bodies);
    const texts = settled.filter((body): body is string => typeof body === 'string');
    t.ok(texts.length >= 3, `the page made its API calls and their bodies were read (${texts.length} of ${settled.length})`);
    t.notOk(texts.some((text) => text.includes(secret)), 'no API response carries the key');
    t.notOk((await page.content()).includes(secret), 'the page does not show it');
    const shown = await page.evaluate<string>(`document.body.innerText + [...document.querySelectorAll('input')].map((i) => i.value).join(' ')`);
    t.notOk(shown.includes(secret), 'nor any text or field');
    await shot(page, 'api-keys');
  });

  await t.test('revoking asks first, then the key is refused', async (t) => {
    await page.getByRole('button', { name: 'Revoke key laptop' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke key laptop?' });
    await dialog.waitFor();
    await shot(page, 'api-keys-revoke');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    t.match(await page.getByRole('row', { name: /laptop/ }).textContent(), /active/, 'cancel leaves the key alone');
    t.equal((await messages(h.url, secret)).status, 200);

    await page.getByRole('button', { name: 'Revoke key laptop' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).press('Enter');
    await page.getByText('Key laptop revoked.').waitFor();
    t.match(await page.getByRole('row', { name: /laptop/ }).textContent(), /revoked/);
    t.equal((await messages(h.url, secret)).status, 401, 'the next messages call is refused');
    t.equal((await chat(h.url, secret)).status, 401, 'the next chat call is refused');
  });

  await t.test('the customer user changes the password and signs in with the new one', async (t) => {
    const newPassword = 'another long passphrase';
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    t.equal(new URL(page.url()).pathname, '/dashboard/account/password');
    await checkPage(t, page, 'change-password');

    await page.getByLabel('Current password', { exact: true }).fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat the new password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is wrong.').waitFor();
    t.equal(await page.evaluate<string | null>(`document.activeElement?.getAttribute('name') ?? null`), 'currentPassword', 'focus moves to the field to fix');

    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    t.equal(await page.getByLabel('New password', { exact: true }).inputValue(), '', 'the form is cleared');
    await shot(page, 'change-password');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to model-gateway' }).waitFor();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'acme › API Keys' }).waitFor();
    t.pass('signed in with the new password');
  });

  await t.test('the pages work at a phone width', async (t) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [tab, name] of [['API Keys', 'api-keys'], ['Usage', 'usage']] as const) {
      await page.getByRole('navigation', { name: 'Customer' }).getByRole('link', { name: tab }).click();
      await page.getByRole('heading', { name: `acme › ${tab}` }).waitFor();
      await checkPage(t, page, `${name} (phone)`);
      await shot(page, `${name}-phone`);
    }
  });

  t.same(pageErrors, [], 'no script errors in the pages');
});
