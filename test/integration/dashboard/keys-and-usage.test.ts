// Customer > API Keys and Usage through the API: a created key works on both surfaces, its requests show
// under usage, revoking it refuses the next call, and the full key is never shown again.
import t from 'tap';
import { waitFor } from '../../helpers/wait.js';
import { AdminClient, ADMIN_TOKEN, callChat as chat, callMessages as messages, startDashboardHarness, TEST_MODEL as MODEL } from './dashboard-harness.js';

t.test('create, use, meter, revoke', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const op = new AdminClient(h.url);
  await op.signIn({ token: ADMIN_TOKEN });
  const { customer } = await op.ok('POST', '/customers', { name: 'acme' });
  const base = `/customers/${customer.id}`;

  const created = await op.send('POST', `${base}/keys`, { name: 'ci', allowedModels: [MODEL, 'claude-haiku-4-5'], rpm: 600, tpm: 100000, expiresAt: '2999-01-01T00:00:00Z' });
  t.equal(created.status, 201, created.text);
  const { key, secret } = created.json();
  t.match(secret, /^mgw_[A-Za-z0-9]+_[A-Za-z0-9]+$/);
  t.same(key.allowedModels, [MODEL, 'claude-haiku-4-5-20251001'], 'aliases are stored as catalogue ids');
  t.same([key.name, key.rpm, key.tpm, key.status, key.expiresAt], ['ci', 600, 100000, 'active', '2999-01-01T00:00:00.000Z']);
  t.ok(secret.startsWith(key.prefix), 'the prefix is the start of the key');

  t.equal((await messages(h.url, secret)).status, 200, 'messages surface');
  t.equal((await chat(h.url, secret)).status, 200, 'chat surface');

  await waitFor(async () => (await op.ok('GET', `${base}/usage`)).totals.requests >= 2, 60_000);
  const usage = await op.ok('GET', `${base}/usage`);
  t.equal(usage.totals.requests, 2);
  t.ok(usage.totals.inputTokens > 0 && usage.totals.outputTokens > 0, 'tokens are counted');
  t.match(usage.totals.costUsd, /^[0-9]+\.[0-9]{2,9}$/, 'cost beside the tokens, an exact decimal string');
  t.not(usage.totals.costUsd, '0.00', 'a priced model costs something');
  t.same([usage.rows[0].costUsd, usage.byModel[0].costUsd], [usage.totals.costUsd, usage.totals.costUsd]);
  t.same(usage.byModel.map((m: { model: string }) => m.model), [MODEL]);
  t.equal(usage.byDay.length, 30, 'the default range is the last 30 days');
  t.equal(usage.rows.length, 1);
  t.equal((await op.ok('GET', `${base}/usage?keyId=${key.id}`)).totals.requests, 2, 'filtered by key');
  const longAgo = await op.ok('GET', `${base}/usage?from=2020-01-01&to=2020-01-31`);
  t.same([longAgo.totals.requests, longAgo.byDay.length, longAgo.totals.costUsd], [0, 31, '0.00']);

  const listed = await op.send('GET', `${base}/keys`);
  t.notOk(listed.text.includes(secret.slice(key.prefix.length)), 'the list never shows the key');
  const row = listed.json().keys[0];
  await waitFor(async () => (await op.ok('GET', `${base}/keys`)).keys[0].lastUsedAt !== null, 8000);

  const revoked = await op.send('DELETE', `${base}/keys/${row.id}`);
  t.equal(revoked.status, 200);
  t.equal(revoked.json().key.status, 'revoked');
  t.equal((await messages(h.url, secret)).status, 401, 'the next call after revoking is refused');
  t.equal((await chat(h.url, secret)).status, 401);
  t.equal((await op.send('DELETE', `${base}/keys/${row.id}`)).status, 200, 'revoking again is harmless');
});

t.test('key settings are validated by the shared rules', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const op = new AdminClient(h.url);
  await op.signIn({ token: ADMIN_TOKEN });
  const { customer } = await op.ok('POST', '/customers', { name: 'acme' });
  const cases: Array<[string, Record<string, unknown>]> = [
    ['expiry in the past', { name: 'k', expiresAt: '2001-01-01T00:00:00Z' }],
    ['expiry not a date', { name: 'k', expiresAt: 'soon' }],
    ['model not in the catalogue', { name: 'k', allowedModels: ['gpt-4o'] }],
    ['empty model list', { name: 'k', allowedModels: [] }],
    ['rpm zero', { name: 'k', rpm: 0 }],
    ['tpm fractional', { name: 'k', tpm: 1.5 }],
    ['rpm as text', { name: 'k', rpm: '10' }],
  ];
  for (const [name, body] of cases) {
    const res = await op.send('POST', `/customers/${customer.id}/keys`, body);
    t.equal(res.status, 400, `${name}: ${res.text}`);
    t.equal(res.json().error.type, 'invalid_request_error');
  }
  t.equal((await op.send('POST', '/customers', { name: 'acme' })).status, 409, 'customer names are unique');
  t.equal((await op.send('POST', '/customers/cus_missing/keys', { name: 'k' })).status, 404);
  t.equal((await op.send('GET', `/customers/${customer.id}/usage?from=2025-02-30`)).status, 400, 'not a calendar day');
  t.equal((await op.send('GET', `/customers/${customer.id}/usage?from=2025-03-02&to=2025-03-01`)).status, 400, 'from after to');
  t.equal((await op.send('GET', `/customers/${customer.id}/usage?from=2020-01-01&to=2025-01-01`)).status, 400, 'range too long');
  const models = await op.ok('GET', '/models');
  t.ok(models.models.some((m: { id: string }) => m.id === MODEL), 'the catalogue is offered');
  t.same(
    models.models.find((m: { id: string }) => m.id === 'claude-sonnet-4-6'),
    {
      id: 'claude-sonnet-4-6',
      displayName: 'Claude Sonnet 4.6',
      priced: true,
      pricedByDefault: false,
      prices: { input: '3', output: '15', cacheWrite: '3.75', cacheWrite1h: '6', cacheRead: '0.3', webSearch: '10' },
    },
    'list prices in USD per million tokens (web search per 1,000 uses)',
  );
});

t.test('users: created by operators, unique by email, removed with their sessions', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const op = new AdminClient(h.url);
  await op.signIn({ token: ADMIN_TOKEN });
  const { customer } = await op.ok('POST', '/customers', { name: 'acme' });
  const path = `/customers/${customer.id}/users`;
  t.equal((await op.send('POST', path, { email: 'not-an-email', password: 'long enough password' })).status, 400);
  t.equal((await op.send('POST', path, { email: 'a@acme.example', password: 'short' })).status, 400);
  const { user } = await op.ok('POST', path, { email: 'A@acme.example', password: 'long enough password' });
  t.equal(user.email, 'a@acme.example');
  t.notOk(JSON.stringify(user).includes('scrypt'), 'no hash in the answer');
  t.equal((await op.send('POST', path, { email: 'a@ACME.example', password: 'another long password' })).status, 409);

  const person = new AdminClient(h.url);
  t.equal((await person.signIn({ email: 'a@acme.example', password: 'long enough password' })).status, 200);
  const listed = await op.ok('GET', path);
  t.ok(listed.users[0].lastSignInAt !== null, 'last sign-in is recorded');
  t.equal((await op.send('DELETE', `${path}/${user.id}`)).status, 200);
  t.equal((await person.send('GET', '/session')).status, 401, 'a removed user is signed out at once');
});
