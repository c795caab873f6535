// PATCH /admin/api/customers/:customerId/keys/:keyId over real HTTP: only the fields given change, the
// gateway applies an edit at once (models, rate limits), bad input is a 400 naming the field, an unknown
// or foreign key a 404, a revoked one a 409; customer users edit only their own customer's keys and stay
// within its limits and budget (403); every edit is one audit row; the secret is in no answer.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, callMessages, startDashboardHarness, TEST_MODEL } from './dashboard-harness.js';

const PASSWORD = 'correct horse battery staple';
const HAIKU = 'claude-haiku-4-5-20251001';

t.test('key edits through the admin API', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  const { customer: acme } = await operator.ok('POST', '/customers', { name: 'acme' });
  const { customer: beta } = await operator.ok('POST', '/customers', { name: 'beta' });
  await operator.ok('POST', `/customers/${acme.id}/budget`, { amountUsd: '10' });
  await operator.ok('POST', `/customers/${acme.id}/limits`, { rpm: 100 });
  const created = await operator.ok('POST', `/customers/${acme.id}/keys`, { name: 'ci', rpm: 50, budgetUsd: '2', budgetPeriod: 'day' });
  const keyPath = `/customers/${acme.id}/keys/${created.key.id}`;
  const secret = created.secret as string;
  const betaKey = await operator.ok('POST', `/customers/${beta.id}/keys`, { name: 'other' });

  await t.test('only the fields given change; the answer never carries the secret', async (t) => {
    const res = await operator.send('PATCH', keyPath, { name: 'nightly' });
    t.equal(res.status, 200, res.text);
    t.same(res.json().key, { ...created.key, name: 'nightly' });
    t.notOk(res.text.includes(secret.slice(-20)), 'no secret');
    const both = await operator.ok('PATCH', keyPath, { tpm: 5000, budgetMode: 'soft', expiresAt: '2099-01-31T00:00:00Z' });
    t.match(both.key, { name: 'nightly', rpm: 50, tpm: 5000, expiresAt: '2099-01-31T00:00:00.000Z', budget: { amountUsd: '2.00', period: 'day', mode: 'soft' } });
    const cleared = await operator.ok('PATCH', keyPath, { expiresAt: null, budgetUsd: null });
    t.match(cleared.key, { expiresAt: null, budget: null, tpm: 5000 });
    t.match(await h.built.stores.keys.getKey(created.key.id), { name: 'nightly', rpm: 50, tpm: 5000, budget: null, expiresAt: null });
  });

  await t.test('the gateway applies an edit at once: allowed models, rate limits', async (t) => {
    t.equal((await callMessages(h.url, secret)).status, 200);
    await operator.ok('PATCH', keyPath, { allowedModels: [HAIKU] });
    const refused = await callMessages(h.url, secret);
    t.equal(refused.status, 403, `${TEST_MODEL} is no longer allowed`);
    await operator.ok('PATCH', keyPath, { allowedModels: null, rpm: 1 });
    t.equal((await callMessages(h.url, secret)).status, 200, 'every model again');
    t.equal((await callMessages(h.url, secret)).status, 429, 'rpm 1: the second request of the minute is refused');
    await operator.ok('PATCH', keyPath, { rpm: null });
    t.equal((await callMessages(h.url, secret)).status, 200, 'no rpm of its own: served again');
  });

  await t.test('bad input: 400 naming the field, nothing changed', async (t) => {
    const before = await h.built.stores.keys.getKey(created.key.id);
    for (const [body, param] of [
      [{ name: 'evil\x1b[2J' }, 'name'],
      [{ name: 42 }, 'name'],
      [{ expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
      [{ expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ allowedModels: [] }, 'allowedModels'],
      [{ allowedModels: ['no-such-model'] }, 'allowedModels'],
      [{ rpm: 0 }, 'rpm'],
      [{ tpm: '5' }, 'tpm'],
      [{ budgetUsd: 'ten' }, 'budgetUsd'],
      [{ budgetUsd: '5', budgetPeriod: 'week' }, 'budgetPeriod'],
      [{ budgetUsd: '5', budgetMode: 'strict' }, 'budgetMode'],
      [{ budgetUsd: null, budgetMode: 'soft' }, 'budgetMode'],
      [{ secret: 'x' }, 'secret'],
      [{ rpm: 5, customerId: beta.id }, 'customerId'],
    ] as const) {
      const res = await operator.send('PATCH', keyPath, body);
      t.equal(res.status, 400, JSON.stringify(body).replace(/\x1b/g, '\\x1b'));
      t.equal(res.json().error.param, param, JSON.stringify(body).replace(/\x1b/g, '\\x1b'));
    }
    const empty = await operator.send('PATCH', keyPath, {});
    t.equal(empty.status, 400, 'an empty body changes nothing');
    t.match(empty.json().error.message, /Nothing to change/);
    const noBudget = await operator.send('PATCH', keyPath, { budgetPeriod: 'month' });
    t.equal(noBudget.status, 400, 'a period alone needs a budget');
    t.match(noBudget.json().error.message, /has no budget/);
    t.same(await h.built.stores.keys.getKey(created.key.id), before);
  });

  await t.test('unknown and foreign keys: 404; a revoked key: 409', async (t) => {
    t.equal((await operator.send('PATCH', `/customers/${acme.id}/keys/0000000000000000`, { rpm: 5 })).status, 404);
    t.equal((await operator.send('PATCH', `/customers/${acme.id}/keys/${betaKey.key.id}`, { rpm: 5 })).status, 404, 'another customer\'s key under this customer');
    t.equal((await operator.send('PATCH', `/customers/cus_nope/keys/${created.key.id}`, { rpm: 5 })).status, 404);
    t.match(await h.built.stores.keys.getKey(betaKey.key.id), { rpm: null });
    const doomed = await operator.ok('POST', `/customers/${acme.id}/keys`, { name: 'doomed' });
    await operator.ok('DELETE', `/customers/${acme.id}/keys/${doomed.key.id}`);
    const revoked = await operator.send('PATCH', `/customers/${acme.id}/keys/${doomed.key.id}`, { name: 'back' });
    t.equal(revoked.status, 409, revoked.text);
    t.match(revoked.json().error.message, /revoked/);
  });

  await t.test('customer users: their own customer\'s keys only, within its limits and budget', async (t) => {
    await operator.ok('POST', `/customers/${acme.id}/users`, { email: 'ann@acme.example', password: PASSWORD });
    const ann = new AdminClient(h.url);
    t.equal((await ann.signIn({ email: 'ann@acme.example', password: PASSWORD })).status, 200);
    t.match((await ann.ok('PATCH', keyPath, { name: 'ann-edited', rpm: 100, budgetUsd: '10' })).key, { name: 'ann-edited', rpm: 100, budget: { amountUsd: '10.00' } }, 'up to the ceilings');

    const aboveBudget = await ann.send('PATCH', keyPath, { budgetUsd: '10.01' });
    t.equal(aboveBudget.status, 403, aboveBudget.text);
    t.match(aboveBudget.json().error, { param: 'budgetUsd', message: /customer's budget is 10\.00 USD per month/ });
    const aboveRpm = await ann.send('PATCH', keyPath, { rpm: 101 });
    t.equal(aboveRpm.status, 403);
    t.equal(aboveRpm.json().error.param, 'rpm');
    const noRpm = await ann.send('PATCH', keyPath, { rpm: null });
    t.equal(noRpm.status, 403, 'no limit of its own is above the customer\'s too');

    t.equal((await ann.send('PATCH', `/customers/${beta.id}/keys/${betaKey.key.id}`, { name: 'mine' })).status, 404, 'another customer: not found');
    t.equal((await ann.send('PATCH', `/customers/${acme.id}/keys/${betaKey.key.id}`, { name: 'mine' })).status, 404, 'another customer\'s key: not found');
    t.match(await h.built.stores.keys.getKey(betaKey.key.id), { name: 'other' });
    t.match(await h.built.stores.keys.getKey(created.key.id), { name: 'ann-edited', rpm: 100, budget: { amountNanoUsd: 10_000_000_000 } }, 'the refusals changed nothing');

    const noCsrf = await ann.send('PATCH', keyPath, { name: 'x' }, { 'x-csrf-token': '' });
    t.equal(noCsrf.status, 403, 'the CSRF token is required');
  });

  await t.test('every edit is one audit row with before and after, never the secret', async (t) => {
    const entries = (await h.built.stores.audit.list({ customerId: acme.id })).filter((e) => e.action === 'key.update');
    t.equal(entries.length, 7, 'one row per edit that changed something (six by the operator, one by ann)');
    t.ok(entries.some((e) => e.actor === 'ann@acme.example' && (e.before as { name: string }).name === 'nightly' && (e.after as { name: string }).name === 'ann-edited'));
    t.notOk(JSON.stringify(entries).includes(secret.slice(-20)), 'no secret in the trail');
  });
});
