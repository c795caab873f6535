// A customer user reaches its own customer's keys and usage only, and no operator endpoint: checked on the
// server, whatever the pages show.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from './dashboard-harness.js';

const PASSWORD = 'correct horse battery staple';

t.test('customer users are confined to their own customer', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  t.equal((await operator.signIn({ token: ADMIN_TOKEN })).status, 200);
  const { customer: a } = await operator.ok('POST', '/customers', { name: 'alpha' });
  const { customer: b } = await operator.ok('POST', '/customers', { name: 'beta' });
  await operator.ok('POST', `/customers/${a.id}/users`, { email: 'ann@alpha.example', password: PASSWORD });
  const { key: bKey } = await operator.ok('POST', `/customers/${b.id}/keys`, { name: 'beta key' });

  const ann = new AdminClient(h.url);
  t.equal((await ann.signIn({ email: 'Ann@Alpha.example', password: PASSWORD })).status, 200, 'email is case-insensitive');
  const me = (await ann.send('GET', '/session')).json();
  t.same({ role: me.role, email: me.email, customer: me.customer.id }, { role: 'customer', email: 'ann@alpha.example', customer: a.id });

  await t.test('own customer: allowed', async (t) => {
    t.equal((await ann.send('GET', `/customers/${a.id}`)).status, 200);
    const created = await ann.send('POST', `/customers/${a.id}/keys`, { name: 'mine' });
    t.equal(created.status, 201);
    t.equal((await ann.send('GET', `/customers/${a.id}/keys`)).json().keys.length, 1);
    t.equal((await ann.send('GET', `/customers/${a.id}/usage`)).status, 200);
    t.equal((await ann.send('DELETE', `/customers/${a.id}/keys/${created.json().key.id}`)).status, 200);
  });

  await t.test('another customer: not found, and nothing changes', async (t) => {
    const cases: Array<[string, 'GET' | 'POST' | 'DELETE', string, unknown]> = [
      ['read the customer', 'GET', `/customers/${b.id}`, undefined],
      ['list its keys', 'GET', `/customers/${b.id}/keys`, undefined],
      ['create a key', 'POST', `/customers/${b.id}/keys`, { name: 'sneaky' }],
      ['revoke its key', 'DELETE', `/customers/${b.id}/keys/${bKey.id}`, undefined],
      ['revoke its key through the own customer path', 'DELETE', `/customers/${a.id}/keys/${bKey.id}`, undefined],
      ['read its usage', 'GET', `/customers/${b.id}/usage`, undefined],
      ['read its usage by key', 'GET', `/customers/${a.id}/usage?keyId=${bKey.id}`, undefined],
    ];
    for (const [name, method, path, body] of cases) {
      const res = await ann.send(method, path, body);
      t.equal(res.status, 404, `${name}: ${res.text}`);
      t.notMatch(res.text, 'beta', `${name}: the other customer's name is not revealed`);
    }
    const bKeys = (await operator.ok('GET', `/customers/${b.id}/keys`)).keys;
    t.same(bKeys.map((k: { status: string }) => k.status), ['active'], "beta's key is untouched and no key was added");
  });

  await t.test('operator endpoints: forbidden', async (t) => {
    const cases: Array<[string, 'GET' | 'POST' | 'DELETE', string, unknown]> = [
      ['list customers', 'GET', '/customers', undefined],
      ['read the overview of every customer', 'GET', '/overview', undefined],
      ['create a customer', 'POST', '/customers', { name: 'gamma' }],
      ['list users of own customer', 'GET', `/customers/${a.id}/users`, undefined],
      ['add a user to own customer', 'POST', `/customers/${a.id}/users`, { email: 'x@alpha.example', password: PASSWORD }],
      ['add a user to another customer', 'POST', `/customers/${b.id}/users`, { email: 'x@beta.example', password: PASSWORD }],
    ];
    for (const [name, method, path, body] of cases) {
      const res = await ann.send(method, path, body);
      t.equal(res.status, 403, `${name}: ${res.text}`);
      t.equal(res.json().error.code, 'forbidden');
    }
    t.equal((await operator.ok('GET', '/customers')).customers.length, 2, 'no customer was added');
  });

  await t.test('signed out: nothing but sign-in', async (t) => {
    const anonymous = new AdminClient(h.url);
    for (const path of ['/session', '/customers', '/overview', `/customers/${a.id}/keys`, `/customers/${a.id}/usage`, '/models']) {
      t.equal((await anonymous.send('GET', path)).status, 401, path);
    }
  });
});
