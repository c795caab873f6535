// Writes docs/api-keys.png, the README's picture of Customer > API Keys, from a real gateway with a few
// keys in it. Not part of the suite (no .test.ts suffix); run it by hand: npx tap test/browser/docs-screenshot.ts
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, callChat, callMessages, startDashboardHarness } from '../integration/dashboard/dashboard-harness.js';
import { waitFor } from '../helpers/wait.js';
import { launchChromium } from './chromium.js';

t.test('docs/api-keys.png', async (t) => {
  const browser = await launchChromium({ width: 1280, height: 760 });
  if (typeof browser === 'string') throw new Error(browser);
  t.teardown(() => browser.close());
  const h = await startDashboardHarness();
  t.teardown(() => h.close());

  const op = new AdminClient(h.url);
  await op.signIn({ token: ADMIN_TOKEN });
  const { customer } = await op.ok('POST', '/customers', { name: 'acme' });
  const keys = `/customers/${customer.id}/keys`;
  const ci = await op.ok('POST', keys, { name: 'CI pipeline', allowedModels: ['claude-sonnet-4-6', 'claude-haiku-4-5-20251001'], rpm: 120, tpm: 400000 });
  const laptop = await op.ok('POST', keys, { name: 'Alice laptop', expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10) + 'T00:00:00Z' });
  const old = await op.ok('POST', keys, { name: 'Old staging', rpm: 60 });
  await callMessages(h.url, ci.secret);
  await callChat(h.url, laptop.secret);
  await op.ok('DELETE', `${keys}/${old.key.id}`);
  await waitFor(async () => (await op.ok('GET', keys)).keys.filter((k: { lastUsedAt: string | null }) => k.lastUsedAt !== null).length === 2, 10_000);

  const page = await browser.context.newPage();
  await page.goto(`${h.url}/dashboard/sign-in`);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in as operator' }).click();
  await page.getByRole('link', { name: 'acme' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Batch jobs');
  await page.getByLabel(/Claude Haiku/).check();
  await page.getByLabel('Tokens per minute (optional)').fill('200000');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByText('It will not be shown again').waitFor();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: 'docs/api-keys.png', fullPage: true });
  t.pass('written');
});
