// Operators set a customer's own rate limits through the admin API: stored, shown with the limits in force
// (GATEWAY_CUSTOMER_LIMITS when it has none), applied by the gateway at once, and the ceiling of the
// customer users' key form. Only operators may set them, with the session's CSRF token.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, callMessages, startDashboardHarness } from './dashboard-harness.js';

const PASSWORD = 'correct horse battery staple';

t.test('customer limits through the admin API', async (t) => {
  const h = await startDashboardHarness({}, { env: { GATEWAY_CUSTOMER_LIMITS: JSON.stringify({ '*': { rpm: 100 } }) } });
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  const { customer: acme } = await operator.ok('POST', '/customers', { name: 'acme' });
  const limitsPath = `/customers/${acme.id}/limits`;

  t.match(acme, { rpm: null, tpm: null, limitsInForce: { rpm: 100, tpm: null } }, 'a new customer: the configured default');

  await t.test('an operator sets them; the customer views and the store show them', async (t) => {
    const res = await operator.send('POST', limitsPath, { rpm: 2, tpm: 1_000_000 });
    t.equal(res.status, 200, res.text);
    t.match(res.json().customer, { id: acme.id, name: 'acme', rpm: 2, tpm: 1_000_000, limitsInForce: { rpm: 2, tpm: 1_000_000 } });
    t.match((await operator.ok('GET', '/customers')).customers, [{ id: acme.id, rpm: 2, tpm: 1_000_000, activeKeys: 0 }]);
    t.match((await operator.ok('GET', `/customers/${acme.id}`)).customer, { rpm: 2, limitsInForce: { rpm: 2, tpm: 1_000_000 } });
    t.match(await h.built.stores.keys.getCustomer(acme.id), { rpm: 2, tpm: 1_000_000 });
  });

  await t.test('this gateway applies them at once, to all the customer\'s keys together', async (t) => {
    const first = await h.createKey({ customer: 'acme' });
    const second = await h.createKey({ customer: 'acme' });
    t.equal((await callMessages(h.url, first.key)).status, 200);
    t.equal((await callMessages(h.url, second.key)).status, 200);
    const refused = await callMessages(h.url, first.key);
    t.equal(refused.status, 429, refused.text);
    t.match(refused.text, /your organisation/);

    // The key cache reads the change before the answer: with no rpm of its own left, the next request passes.
    // (A raised rpm would refill the emptied window at the new rate, not at once.)
    await operator.ok('POST', limitsPath, { rpm: null, tpm: 1_000_000 });
    t.equal((await callMessages(h.url, second.key)).status, 200, 'a removed rpm limit applies at once');
  });

  await t.test('the customer users\' key form is capped by the stored limits', async (t) => {
    await operator.ok('POST', limitsPath, { rpm: 50, tpm: null });
    await operator.ok('POST', `/customers/${acme.id}/users`, { email: 'ann@acme.example', password: PASSWORD });
    const ann = new AdminClient(h.url);
    t.equal((await ann.signIn({ email: 'ann@acme.example', password: PASSWORD })).status, 200);
    const above = await ann.send('POST', `/customers/${acme.id}/keys`, { name: 'too fast', rpm: 51 });
    t.equal(above.status, 403, above.text);
    t.match(above.json().error, { param: 'rpm', message: /limit is 50 requests per minute/ });
    t.equal((await ann.send('POST', `/customers/${acme.id}/keys`, { name: 'within', rpm: 50, tpm: 999_999_999 })).status, 201, 'the stored tpm is none: no ceiling there');
    t.match((await ann.ok('GET', `/customers/${acme.id}`)).customer, { rpm: 50, tpm: null, limitsInForce: { rpm: 50, tpm: null } }, 'a customer user sees its own');

    const bySelf = await ann.send('POST', limitsPath, { rpm: 100_000 });
    t.equal(bySelf.status, 403, 'a customer user may not set them');
    t.match(await h.built.stores.keys.getCustomer(acme.id), { rpm: 50 }, 'unchanged');
  });

  await t.test('refusals: CSRF, bad numbers, unknown customer', async (t) => {
    const noCsrf = await operator.send('POST', limitsPath, { rpm: 7 }, { 'x-csrf-token': '' });
    t.equal(noCsrf.status, 403, 'the CSRF token is required');
    for (const [body, param] of [[{ rpm: 0 }, 'rpm'], [{ rpm: '5' }, 'rpm'], [{ tpm: 1.5 }, 'tpm'], [{ rpm: 1, tpm: -1 }, 'tpm']] as const) {
      const res = await operator.send('POST', limitsPath, body);
      t.equal(res.status, 400, JSON.stringify(body));
      t.equal(res.json().error.param, param, JSON.stringify(body));
    }
    t.equal((await operator.send('POST', '/customers/cus_nope/limits', { rpm: 1 })).status, 404);
    t.match(await h.built.stores.keys.getCustomer(acme.id), { rpm: 50, tpm: null }, 'nothing changed');
  });

  await t.test('clearing them brings the configured default back', async (t) => {
    const res = await operator.send('POST', limitsPath, { rpm: null, tpm: null });
    t.equal(res.status, 200, res.text);
    t.match(res.json().customer, { rpm: null, tpm: null, limitsInForce: { rpm: 100, tpm: null } });
  });
});
