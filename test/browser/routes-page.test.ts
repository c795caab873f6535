// The operators' Routes page in a real browser: providers and routes with their state now, a route
// the provider throttled shown cooling down with its end, the others ready with their headroom.
// A screenshot goes to test-artifacts/.
import { mkdirSync } from 'node:fs';
import t from 'tap';
import { callMessages, startDashboardHarness } from '../integration/dashboard/dashboard-harness.js';
import { startAccounts } from '../integration/routes/fixtures/accounts.js';
import { launchChromium } from './chromium.js';
import { signInAsOperator } from './sign-in.js';

const ARTIFACTS = 'test-artifacts';

const browser = await launchChromium();
if (typeof browser === 'string') console.error(`\n*** SKIPPING the routes page browser test: ${browser} ***\n`);

t.test('an operator sees providers and routes with their state on the Routes page', { skip: typeof browser === 'string' ? browser : false }, async (t) => {
  if (typeof browser === 'string') return;
  t.teardown(() => browser.close());
  const accounts = await startAccounts(t, [{ id: 'acct-a' }, { id: 'acct-b' }, { id: 'bedrock-like', priority: 2 }]);
  const h = await startDashboardHarness({}, { env: accounts.env });
  t.teardown(() => h.close());
  mkdirSync(ARTIFACTS, { recursive: true });
  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));

  const { key } = await h.createKey();
  accounts.sims.get('acct-a')!.injectFault({ kind: 'status', status: 429, retryAfter: 50 });
  for (let i = 0; i < 3; i++) t.equal((await callMessages(h.url, key)).status, 200);

  await signInAsOperator(page, h.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Routes' }).click();
  await page.getByRole('heading', { name: 'Routes', level: 1 }).waitFor();
  t.equal(new URL(page.url()).pathname, '/dashboard/routes');

  const providers = page.getByRole('region', { name: 'Providers' });
  for (const id of ['acct-a', 'acct-b', 'bedrock-like']) t.match(await providers.getByRole('row', { name: new RegExp(id) }).textContent(), /anthropic\s*1/);
  const routes = page.getByRole('region', { name: 'Routes' });
  const cooling = await routes.getByRole('row', { name: /claude-sonnet-4-6@acct-a/ }).textContent();
  t.match(cooling, /cooling down \(throttled\)/, 'the throttled route is shown cooling down');
  t.match(cooling, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/, 'with the moment it ends');
  const ready = await routes.getByRole('row', { name: /claude-sonnet-4-6@acct-b/ }).textContent();
  t.match(ready, /ready/);
  t.match(ready, /requests [\d,]+/, 'with the headroom its provider reported');
  t.match(ready, /closed/, 'and its breaker');
  const spare = routes.getByRole('row', { name: /bedrock-like/ }).getByRole('cell');
  t.equal(await spare.nth(4).textContent(), '2', 'priority 2');
  t.equal(await spare.nth(5).textContent(), 'ready', 'not needed, so untouched');
  await page.screenshot({ path: `${ARTIFACTS}/routes.png`, fullPage: true });

  t.same(pageErrors, [], 'no script errors');
});
