// A running gateway applies a customer budget written to its database by someone else (another
// connection, as the CLI or another instance would), within its key refresh interval and without a
// restart: the store stamps the customer's keys as changed, and the key cache reloads them with it.
import t from 'tap';
import { join } from 'node:path';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { startHarness } from '../../helpers/harness.js';
import { waitFor } from '../../helpers/wait.js';
import { callMessages } from '../dashboard/dashboard-harness.js';

const REFRESH_MS = 500;
/** The promise to operators: a change reaches every instance within 2 s. */
const WITHIN_MS = 2000;

t.test('a customer budget set in the store applies while the gateway runs', async (t) => {
  const h = await startHarness({ env: { GATEWAY_KEY_REFRESH_MS: String(REFRESH_MS) } });
  t.teardown(() => h.close());
  const { key } = await h.createKey({ customer: 'acme' });
  const send = () => callMessages(h.url, key);
  const first = await send();
  t.equal(first.status, 200);
  t.equal(first.headers['x-gateway-budget-remaining'], undefined, 'no budget yet');

  const db = openDatabase(`file:${join(h.dataDir, 'gateway.db')}`);
  t.teardown(() => db.close());
  const elsewhere = new SqliteKeyStore(db);
  const acme = (await elsewhere.getCustomerByName('acme'))!;
  // One nano-dollar: no request fits.
  await elsewhere.setCustomerBudget(acme.id, { amountNanoUsd: 1, period: 'month', mode: 'hard' });
  const setAt = Date.now();
  let refused = '';
  await waitFor(async () => {
    const res = await send();
    if (res.status === 429) refused = res.json().error.message as string;
    return res.status === 429;
  }, WITHIN_MS + 3000);
  const took = Date.now() - setAt;
  t.ok(took <= WITHIN_MS, `refused ${took} ms after the change (refresh every ${REFRESH_MS} ms)`);
  t.match(refused, /customer "acme", 0\.000000001 USD per month/);

  await elsewhere.setCustomerBudget(acme.id, null);
  await waitFor(async () => (await send()).status === 200, WITHIN_MS + 3000);
  t.pass('removed: served again');
});
