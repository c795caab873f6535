// Through the admin API: a customer user may not give a new key a budget above its customer's (403 naming
// budgetUsd, no key created); within it, or without a budget of its own, the key is created; operators are
// not held to it.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from './dashboard-harness.js';

const PASSWORD = 'correct horse battery staple';

t.test("a customer user's key budget stays within the customer's budget", async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  const { customer } = await operator.ok('POST', '/customers', { name: 'acme' });
  await operator.ok('POST', `/customers/${customer.id}/users`, { email: 'bo@acme.example', password: PASSWORD });
  const bo = new AdminClient(h.url);
  t.equal((await bo.signIn({ email: 'bo@acme.example', password: PASSWORD })).status, 200);
  const keysPath = `/customers/${customer.id}/keys`;

  t.equal((await bo.send('POST', keysPath, { name: 'before', budgetUsd: '5000' })).status, 201, 'no customer budget: any key budget');
  await operator.ok('POST', `/customers/${customer.id}/budget`, { amountUsd: '100', amountPeriod: 'month' });

  const above = await bo.send('POST', keysPath, { name: 'big', budgetUsd: '100.01', budgetPeriod: 'total' });
  t.equal(above.status, 403, above.text);
  t.same(above.json().error, {
    message: "Your customer's budget is 100.00 USD per month: a key's budget of 100.01 USD is above it; set at most 100.00.",
    type: 'permission_denied',
    param: 'budgetUsd',
    code: 'forbidden',
  });
  t.notOk((await operator.ok('GET', keysPath)).keys.some((k: { name: string }) => k.name === 'big'), 'no key was created');

  const within = await bo.send('POST', keysPath, { name: 'ci', budgetUsd: '100', budgetPeriod: 'month' });
  t.equal(within.status, 201, within.text);
  t.match(within.json().key.budget, { amountUsd: '100.00', period: 'month' });
  t.equal((await bo.send('POST', keysPath, { name: 'plain' })).status, 201, 'no budget of its own: the customer budget applies');
  t.equal((await operator.send('POST', keysPath, { name: 'ops', budgetUsd: '1000' })).status, 201, 'an operator may give any budget');
});
