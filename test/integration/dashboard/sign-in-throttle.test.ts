// Repeated failed sign-ins are throttled per (account, address) and per address, with a growing delay per
// account; none of it can be turned into a lock-out of the real person signing in from elsewhere.
import t from 'tap';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from './dashboard-harness.js';

const PASSWORD = 'the right password 123';
const REFUSED = 'Sign-in refused: wrong token, email or password.';
/** The gateway believes X-Forwarded-For from the test client, so each test can pick a client address. */
const BEHIND_PROXY = { env: { GATEWAY_TRUSTED_PROXIES: '127.0.0.1' } };
const from = (ip: string) => ({ 'x-forwarded-for': ip });

t.test('failed sign-ins are throttled per account and address', async (t) => {
  const h = await startDashboardHarness({ throttle: { pair: { maxFailures: 3, windowMs: 600_000 } } });
  t.teardown(() => h.close());
  const op = new AdminClient(h.url);
  await op.signIn({ token: ADMIN_TOKEN });
  const { customer } = await op.ok('POST', '/customers', { name: 'acme' });
  await op.ok('POST', `/customers/${customer.id}/users`, { email: 'bo@acme.example', password: PASSWORD });

  const guesser = new AdminClient(h.url);
  for (let i = 1; i <= 3; i++) {
    const res = await guesser.signIn({ email: 'bo@acme.example', password: `guess ${i} xxxxxxx` });
    t.equal(res.status, 401, `guess ${i} refused`);
    t.equal(res.json().error.message, REFUSED);
  }
  const locked = await guesser.signIn({ email: 'bo@acme.example', password: PASSWORD });
  t.equal(locked.status, 429, 'the right password is refused from the address that guessed');
  t.ok(Number(locked.headers['retry-after']) > 0, 'retry-after says how long');
  t.equal((await new AdminClient(h.url).signIn({ email: 'BO@acme.example', password: PASSWORD })).status, 429, 'the account, not the spelling, is throttled');

  const unknown = await guesser.signIn({ email: 'nobody@acme.example', password: PASSWORD });
  t.equal(unknown.status, 401, 'another account is not affected, and an unknown email reads like a wrong password');
  t.equal(unknown.json().error.message, REFUSED);

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
  const h = await startDashboardHarness({ throttle: { address: { maxFailures: 2, windowMs: 600_000 } } }, BEHIND_PROXY);
  t.teardown(() => h.close());
  const c = new AdminClient(h.url);
  for (let i = 0; i < 2; i++) {
    const res = await c.send('POST', '/session', { email: `user${i}@x.example`, password: 'wrong password 1' }, from('203.0.113.7'));
    t.equal(res.status, 401);
  }
  t.equal((await c.send('POST', '/session', { token: ADMIN_TOKEN }, from('203.0.113.7'))).status, 429, 'the guessing client is throttled');
  t.equal((await c.send('POST', '/session', { token: ADMIN_TOKEN }, from('198.51.100.4'))).status, 200, 'another client behind the same proxy is not');
});

t.test('an attacker hammering an account cannot lock its owner out (default limits)', async (t) => {
  const h = await startDashboardHarness({}, BEHIND_PROXY);
  t.teardown(() => h.close());
  const setup = new AdminClient(h.url);
  await setup.signIn({ token: ADMIN_TOKEN });
  const { customer } = await setup.ok('POST', '/customers', { name: 'acme' });
  await setup.ok('POST', `/customers/${customer.id}/users`, { email: 'bo@acme.example', password: PASSWORD });

  const attempt = (address: string, body: Record<string, string>) => new AdminClient(h.url).send('POST', '/session', body, from(address));
  const statuses = async (address: (i: number) => string, body: (i: number) => Record<string, string>) => {
    const seen: number[] = [];
    for (let i = 0; i < 12; i++) seen.push((await attempt(address(i), body(i))).status);
    return seen;
  };

  // From one address: refused, soon throttled, never admitted.
  const oneAddress = await statuses(() => '203.0.113.7', (i) => ({ token: `wrong-token-${i}` }));
  t.ok(oneAddress.every((s) => s === 401 || s === 429), `one address: ${oneAddress.join(' ')}`);
  t.ok(oneAddress.includes(429), 'the guessing address is throttled');
  // From many addresses at once: each new address is judged, the account's delay grows.
  const manyAddresses = await statuses((i) => `203.0.113.${100 + i}`, (i) => ({ token: `wrong-token-${i}` }));
  t.same(manyAddresses, Array(12).fill(401), 'every spread guess is refused');

  const started = Date.now();
  const real = await attempt('198.51.100.2', { token: ADMIN_TOKEN });
  t.equal(real.status, 200, 'the operator signs in from an address that has not failed');
  t.ok(Date.now() - started < 2000, 'at once, not after the delay the attacker built up');

  const userGuesses = await statuses(() => '203.0.113.9', (i) => ({ email: 'bo@acme.example', password: `guess ${i} xxxxxxx` }));
  t.ok(userGuesses.every((s) => s === 401 || s === 429), `user account, one address: ${userGuesses.join(' ')}`);
  t.equal((await attempt('198.51.100.3', { email: 'bo@acme.example', password: PASSWORD })).status, 200, 'the user signs in from elsewhere');
  t.equal((await attempt('203.0.113.9', { email: 'bo@acme.example', password: PASSWORD })).status, 429, 'but not from the guessing address');
});
