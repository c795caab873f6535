// Repeated failed sign-ins are throttled: after the limit even the right password is refused for a while.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from './dashboard-harness.js';

const PASSWORD = 'the right password 123';

t.test('failed sign-ins are throttled per account', async (t) => {
  const h = await startDashboardHarness({ throttle: { account: { maxFailures: 3, windowMs: 600_000 } } });
  t.teardown(() => h.close());
  const op = new AdminClient(h.url);
  await op.signIn({ token: ADMIN_TOKEN });
  const { customer } = await op.ok('POST', '/customers', { name: 'acme' });
  await op.ok('POST', `/customers/${customer.id}/users`, { email: 'bo@acme.example', password: PASSWORD });

  const guesser = new AdminClient(h.url);
  for (let i = 1; i <= 3; i++) {
    const res = await guesser.signIn({ email: 'bo@acme.example', password: `guess ${i} xxxxxxx` });
    t.equal(res.status, 401, `guess ${i} refused`);
    t.equal(res.json().error.message, 'Sign-in refused: wrong token, email or password.');
  }
  const locked = await guesser.signIn({ email: 'bo@acme.example', password: PASSWORD });
  t.equal(locked.status, 429, 'the right password is refused while throttled');
  t.ok(Number(locked.headers['retry-after']) > 0, 'retry-after says how long');
  t.equal((await new AdminClient(h.url).signIn({ email: 'BO@acme.example', password: PASSWORD })).status, 429, 'the account, not the spelling, is throttled');

  const unknown = await guesser.signIn({ email: 'nobody@acme.example', password: PASSWORD });
  t.equal(unknown.status, 401, 'another account is not affected, and an unknown email reads like a wrong password');
  t.equal(unknown.json().error.message, 'Sign-in refused: wrong token, email or password.');

  for (let i = 0; i < 3; i++) await guesser.signIn({ token: `wrong-token-${i}` });
  t.equal((await guesser.signIn({ token: ADMIN_TOKEN })).status, 429, 'operator sign-in is throttled the same way');
  t.notOk(h.logText().includes(PASSWORD), 'passwords are never logged');
});

t.test('failures are counted per client address too', async (t) => {
  const h = await startDashboardHarness({ throttle: { address: { maxFailures: 4, windowMs: 600_000 } } });
  t.teardown(() => h.close());
  const c = new AdminClient(h.url);
  for (let i = 0; i < 4; i++) t.equal((await c.signIn({ email: `user${i}@x.example`, password: 'wrong password 1' })).status, 401);
  t.equal((await c.signIn({ token: ADMIN_TOKEN })).status, 429, 'this address is throttled for every account');
});

t.test('behind a trusted proxy, each forwarded client is its own address', async (t) => {
  const h = await startDashboardHarness({ throttle: { address: { maxFailures: 2, windowMs: 600_000 } } }, { env: { GATEWAY_TRUSTED_PROXIES: '127.0.0.1' } });
  t.teardown(() => h.close());
  const c = new AdminClient(h.url);
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  for (let i = 0; i < 2; i++) {
    const res = await c.send('POST', '/session', { email: `user${i}@x.example`, password: 'wrong password 1' }, from('203.0.113.7'));
    t.equal(res.status, 401);
  }
  t.equal((await c.send('POST', '/session', { token: ADMIN_TOKEN }, from('203.0.113.7'))).status, 429, 'the guessing client is throttled');
  t.equal((await c.send('POST', '/session', { token: ADMIN_TOKEN }, from('198.51.100.4'))).status, 200, 'another client behind the same proxy is not');
});
