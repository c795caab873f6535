// GATEWAY_MAX_KEYS_PER_CUSTOMER through the admin API: an operator and a customer user alike get 409 with
// a JSON error naming the limit once the customer holds that many active keys; revoking frees a place;
// concurrent creations never pass the cap.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from './dashboard-harness.js';

const PASSWORD = 'correct horse battery staple';
const LIMIT_MESSAGE = 'This customer already has 3 active keys, the most allowed (GATEWAY_MAX_KEYS_PER_CUSTOMER); revoke one first.';

t.test('a customer holds at most GATEWAY_MAX_KEYS_PER_CUSTOMER active keys', async (t) => {
  const h = await startDashboardHarness({}, { env: { GATEWAY_MAX_KEYS_PER_CUSTOMER: '3' } });
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  t.equal((await operator.signIn({ token: ADMIN_TOKEN })).status, 200);
  const { customer } = await operator.ok('POST', '/customers', { name: 'acme' });
  const { customer: other } = await operator.ok('POST', '/customers', { name: 'globex' });
  await operator.ok('POST', `/customers/${customer.id}/users`, { email: 'bo@acme.example', password: PASSWORD });
  const bo = new AdminClient(h.url);
  t.equal((await bo.signIn({ email: 'bo@acme.example', password: PASSWORD })).status, 200);
  const keysPath = `/customers/${customer.id}/keys`;

  const { key: first } = await operator.ok('POST', keysPath, { name: 'one' });
  t.equal((await bo.send('POST', keysPath, { name: 'two' })).status, 201);
  t.equal((await bo.send('POST', keysPath, { name: 'three' })).status, 201);
  for (const [who, client] of [['a customer user', bo], ['the operator', operator]] as const) {
    const refused = await client.send('POST', keysPath, { name: 'four' });
    t.equal(refused.status, 409, `${who}: ${refused.text}`);
    t.same(refused.json(), { error: { message: LIMIT_MESSAGE, type: 'invalid_request_error', param: null, code: 'conflict' } }, `${who}: the error names the limit`);
    t.notMatch(refused.text, /mgw_/, 'no key in the answer');
  }
  t.equal((await operator.ok('GET', keysPath)).keys.length, 3, 'no key was created');
  t.equal((await operator.send('POST', `/customers/${other.id}/keys`, { name: 'theirs' })).status, 201, 'another customer counts its own keys');

  await operator.ok('DELETE', `${keysPath}/${first.id}`);
  t.equal((await bo.send('POST', keysPath, { name: 'four' })).status, 201, 'a revoked key frees its place');

  const active = (await operator.ok('GET', keysPath)).keys.filter((k: { status: string }) => k.status === 'active');
  await operator.ok('DELETE', `${keysPath}/${active[0].id}`);
  const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => bo.send('POST', keysPath, { name: `burst ${i}` })));
  t.same(burst.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409], 'six at once with one place left: one created');
});
