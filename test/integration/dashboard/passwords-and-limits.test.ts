// Customer users' passwords (rehash at sign-in when the cost was raised, changing one's own password) and
// the ceiling on the limits a customer user may give a new key.
import t from 'tap';
import { PasswordHasher, parseHash } from '../../../src/admin/auth/passwords.js';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness, TEST_PASSWORD_COST } from './dashboard-harness.js';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase';

t.test('customer user passwords and key limits', async (t) => {
  const h = await startDashboardHarness({}, { env: { GATEWAY_CUSTOMER_LIMITS: JSON.stringify({ acme: { rpm: 100, tpm: 50_000 } }) } });
  t.teardown(() => h.close());
  const users = h.built.stores.users;
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  const { customer: acme } = await operator.ok('POST', '/customers', { name: 'acme' });
  const { customer: open } = await operator.ok('POST', '/customers', { name: 'open' });
  await operator.ok('POST', `/customers/${acme.id}/users`, { email: 'ann@acme.example', password: PASSWORD });
  await operator.ok('POST', `/customers/${open.id}/users`, { email: 'olaf@open.example', password: PASSWORD });
  // Signed in once and kept: after the failures below, the sign-in throttle would slow fresh sign-ins down.
  const ann = new AdminClient(h.url);
  const olaf = new AdminClient(h.url);
  const storedHash = async (email: string) => (await users.credentialsFor(email))!.passwordHash;

  await t.test('a hash at an older cost is replaced by one at the current cost at the next sign-in', async (t) => {
    const user = (await users.credentialsFor('ann@acme.example'))!;
    const older = await new PasswordHasher({ N: 512, r: 8, p: 1 }).hash(PASSWORD);
    t.ok(await users.replacePasswordHash(user.user.id, user.passwordHash, older));

    const wrong = await new AdminClient(h.url).signIn({ email: 'ann@acme.example', password: 'not the password' });
    t.equal(wrong.status, 401);
    t.equal(await storedHash('ann@acme.example'), older, 'a failed sign-in rehashes nothing');

    t.equal((await new AdminClient(h.url).signIn({ email: 'ann@acme.example', password: PASSWORD })).status, 200, 'the old hash still verifies');
    const rehashed = await storedHash('ann@acme.example');
    t.not(rehashed, older);
    t.same(parseHash(rehashed)?.cost, TEST_PASSWORD_COST, 'stored with the current parameters');
    t.equal((await new AdminClient(h.url).signIn({ email: 'ann@acme.example', password: PASSWORD })).status, 200, 'and the new hash verifies');
    t.equal(await storedHash('ann@acme.example'), rehashed, 'a current hash is left alone');
  });

  await t.test('changing the password', async (t) => {
    const here = ann;
    const elsewhere = new AdminClient(h.url);
    await here.signIn({ email: 'ann@acme.example', password: PASSWORD });
    await elsewhere.signIn({ email: 'ann@acme.example', password: PASSWORD });

    const refusals: Array<[string, unknown, number, string]> = [
      ['wrong current password', { currentPassword: 'not the password', newPassword: NEW_PASSWORD }, 403, 'currentPassword'],
      ['no current password', { newPassword: NEW_PASSWORD }, 400, 'currentPassword'],
      ['a new password too short', { currentPassword: PASSWORD, newPassword: 'short' }, 400, 'newPassword'],
      ['a new password too long', { currentPassword: PASSWORD, newPassword: 'x'.repeat(1025) }, 400, 'newPassword'],
      ['the same password again', { currentPassword: PASSWORD, newPassword: PASSWORD }, 400, 'newPassword'],
    ];
    for (const [name, body, status, param] of refusals) {
      const res = await here.send('POST', '/session/password', body);
      t.equal(res.status, status, `${name}: ${res.text}`);
      t.equal(res.json().error.param, param, `${name}: names ${param}`);
    }
    t.equal((await elsewhere.send('GET', '/session')).status, 200, 'refusals end no session');
    const asOperator = await operator.send('POST', '/session/password', { currentPassword: ADMIN_TOKEN, newPassword: NEW_PASSWORD });
    t.equal(asOperator.status, 403, 'operators have no password to change');
    const noCsrf = await here.send('POST', '/session/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, { 'x-csrf-token': '' });
    t.equal(noCsrf.status, 403, 'the CSRF token is required');

    const changed = await here.send('POST', '/session/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    t.equal(changed.status, 200, changed.text);
    // The other browser, and the two sign-ins of the rehash test above.
    t.same(changed.json(), { changed: true, otherSessionsEnded: 3 });
    t.equal((await here.send('GET', '/session')).status, 200, 'this session goes on');
    t.equal((await elsewhere.send('GET', '/session')).status, 401, 'the other session ended');
    t.equal((await new AdminClient(h.url).signIn({ email: 'ann@acme.example', password: NEW_PASSWORD })).status, 200, 'the new password works');
    t.equal((await new AdminClient(h.url).signIn({ email: 'ann@acme.example', password: PASSWORD })).status, 401, 'the old one no longer does');
    t.notOk(h.logText().includes(NEW_PASSWORD) || h.logText().includes(PASSWORD), 'no password is logged');
  });

  await t.test('wrong current passwords count as failed sign-ins', async (t) => {
    await olaf.signIn({ email: 'olaf@open.example', password: PASSWORD });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await olaf.send('POST', '/session/password', { currentPassword: `guess number ${i}`, newPassword: NEW_PASSWORD })).status);
    t.equal(statuses[0], 403);
    t.ok(statuses.includes(429), `guessing is throttled (${statuses.join(' ')})`);
  });

  await t.test('a customer user cannot give a key limits above its customer own', async (t) => {
    const keys = `/customers/${acme.id}/keys`;
    const refused: Array<[string, Record<string, unknown>, string, RegExp]> = [
      ['rpm above', { rpm: 101, tpm: 50_000 }, 'rpm', /limit is 100 requests per minute.*at most 100/],
      ['tpm above', { rpm: 100, tpm: 50_001 }, 'tpm', /limit is 50000 tokens per minute.*at most 50000/],
      ['no rpm (unlimited)', { tpm: 10 }, 'rpm', /at most 100/],
      ['no tpm (unlimited)', { rpm: 10 }, 'tpm', /at most 50000/],
    ];
    for (const [name, limits, param, message] of refused) {
      const res = await ann.send('POST', keys, { name, ...limits });
      t.equal(res.status, 403, `${name}: ${res.text}`);
      t.equal(res.json().error.param, param, `${name}: names ${param}`);
      t.match(res.json().error.message, message, name);
    }
    t.equal((await ann.ok('GET', keys)).keys.length, 0, 'no key was created');
    const within = await ann.send('POST', keys, { name: 'at the ceiling', rpm: 100, tpm: 50_000 });
    t.equal(within.status, 201, within.text);
    t.equal((await ann.send('POST', keys, { name: 'stricter', rpm: 5, tpm: 1000 })).status, 201);

    const byOperator = await operator.send('POST', keys, { name: 'operator choice', rpm: 1000 });
    t.equal(byOperator.status, 201, 'an operator may set anything');
    t.same([byOperator.json().key.rpm, byOperator.json().key.tpm], [1000, null]);

    const unlimited = await olaf.send('POST', `/customers/${open.id}/keys`, { name: 'no ceiling', rpm: 100_000 });
    t.equal(unlimited.status, 201, 'a customer without limits sets any');
  });
});
