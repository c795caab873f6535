// A running gateway applies a customer limit written to its database by someone else (another connection,
// as the CLI or another instance would), within its key refresh interval and without a restart: the
// store stamps the customer's keys as changed, and the key cache reloads them with the new limits.
import t from 'tap';
import { join } from 'node:path';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';

const REFRESH_MS = 500;
/** The task's promise to operators: a limit reaches every instance within 2 s. */
const WITHIN_MS = 2000;

t.test('a customer limit set in the store applies while the gateway runs', async (t) => {
  const h = await startHarness({
    env: { GATEWAY_KEY_REFRESH_MS: String(REFRESH_MS), GATEWAY_CUSTOMER_LIMITS: JSON.stringify({ '*': { rpm: 1000 } }) },
  });
  t.teardown(() => h.close());
  const { key } = await h.createKey({ customer: 'acme' });
  const send = () =>
    call(`${h.url}/gateway/v1/messages`, {
      headers: bearer(key),
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
  for (let i = 0; i < 3; i++) t.equal((await send()).status, 200, 'the configured default (1000 rpm) lets it through');

  const db = openDatabase(`file:${join(h.dataDir, 'gateway.db')}`);
  t.teardown(() => db.close());
  const elsewhere = new SqliteKeyStore(db);
  const acme = (await elsewhere.getCustomerByName('acme'))!;
  await elsewhere.setCustomerLimits(acme.id, { rpm: 1, tpm: null });
  const setAt = Date.now();

  let refused = '';
  await waitFor(async () => {
    const res = await send();
    if (res.status === 429) refused = res.text;
    return res.status === 429;
  }, WITHIN_MS + 3000);
  const took = Date.now() - setAt;
  t.ok(took <= WITHIN_MS, `refused ${took} ms after the change (refresh every ${REFRESH_MS} ms)`);
  t.match(refused, /your organisation/, 'by the customer limit, not the key\'s');

  await elsewhere.setCustomerLimits(acme.id, { rpm: null, tpm: null });
  await waitFor(async () => (await send()).status === 200, WITHIN_MS + 3000);
  t.pass('cleared: the configured default applies again');
});
