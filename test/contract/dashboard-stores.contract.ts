// What every store of dashboard users and session rows must do, whatever database holds them. Each
// implementation's test file runs this suite with a factory that hands each test empty stores.
import type { Test } from 'tap';
import type { SessionRow, SessionRows } from '../../src/stores/session-rows.js';
import { UserExistsError, type UserStore } from '../../src/stores/user-store.js';
import type { KeyStore } from '../../src/keys/key-store.js';

export interface DashboardStoresFixture {
  users: UserStore;
  sessions: SessionRows;
  /** For customers, which users belong to. */
  keys: KeyStore;
}

export type DashboardStoresFactory = (t: Test) => Promise<DashboardStoresFixture>;

const HASH = 'scrypt$17$8$1$c2FsdA$aGFzaA';

function sessionRow(overrides: Partial<SessionRow> & Pick<SessionRow, 'idHash'>): SessionRow {
  return { role: 'operator', userId: null, credentialTag: 'tag', csrfToken: 'csrf', createdAt: 1_000, lastSeenAt: 1_000, expiresAt: 100_000, ...overrides };
}

const hash = (n: number) => Buffer.alloc(32, n);

export function dashboardStoresContract(t: Test, open: DashboardStoresFactory): void {
  t.test('users: create, find by email, list by customer, a second account with one email refused', async (t) => {
    const { users, keys } = await open(t);
    const acme = await keys.createCustomer('acme');
    const other = await keys.createCustomer('other');
    const bob = await users.create(acme.id, 'bob@acme.example', HASH);
    const amy = await users.create(acme.id, 'amy@acme.example', HASH);
    await users.create(other.id, 'zed@other.example', HASH);
    t.match(bob, { customerId: acme.id, email: 'bob@acme.example', lastSignInAt: null });
    t.match(bob.id, /^usr_/);
    t.ok(!Number.isNaN(Date.parse(bob.createdAt)), 'created time is ISO 8601');
    t.same(await users.get(bob.id), bob);
    t.equal(await users.get('usr_nobody'), null);
    t.same((await users.listByCustomer(acme.id)).map((u) => u.email), ['amy@acme.example', 'bob@acme.example'], 'ordered by email');
    const credentials = await users.credentialsFor('amy@acme.example');
    t.same(credentials, { user: amy, passwordHash: HASH });
    t.equal(await users.credentialsFor('nobody@acme.example'), null);
    await t.rejects(users.create(other.id, 'bob@acme.example', HASH), UserExistsError, 'emails are unique across customers');
    await t.rejects(users.create(other.id, 'BOB@acme.example', HASH), UserExistsError, 'whatever their case');
  });

  t.test('users: a password hash is replaced only while it is still the one read', async (t) => {
    const { users, keys } = await open(t);
    const acme = await keys.createCustomer('acme');
    const bob = await users.create(acme.id, 'bob@acme.example', HASH);
    t.equal(await users.replacePasswordHash(bob.id, HASH, 'new-1'), true);
    t.equal(await users.replacePasswordHash(bob.id, HASH, 'stale'), false, 'a rehash racing a change loses');
    t.equal((await users.credentialsFor('bob@acme.example'))?.passwordHash, 'new-1');
    const at = new Date('2026-11-25T01:02:03.456Z');
    await users.recordSignIn(bob.id, at);
    t.equal((await users.get(bob.id))?.lastSignInAt, at.toISOString());
  });

  t.test('sessions: stored, read back, touched, swept, removed', async (t) => {
    const { sessions } = await open(t);
    const row = sessionRow({ idHash: hash(1) });
    await sessions.insert(row);
    t.same(await sessions.get(hash(1)), row);
    t.equal(await sessions.get(hash(9)), null);
    await sessions.touch(hash(1), 5_000);
    t.equal((await sessions.get(hash(1)))?.lastSeenAt, 5_000);
    await sessions.insert(sessionRow({ idHash: hash(2), expiresAt: 6_000, lastSeenAt: 5_500 }));
    await sessions.insert(sessionRow({ idHash: hash(3), lastSeenAt: 2_000 }));
    // At 6,000 with an idle limit that ended whatever was last seen at or before 2,000.
    await sessions.sweep(6_000, 2_000);
    t.ok(await sessions.get(hash(1)), 'a live session stays');
    t.equal(await sessions.get(hash(2)), null, 'an expired one goes');
    t.equal(await sessions.get(hash(3)), null, 'an idle one goes');
    await sessions.remove(hash(1));
    t.equal(await sessions.get(hash(1)), null);
  });

  t.test("sessions: a user's others end on request, and all of them with the user", async (t) => {
    const { users, sessions, keys } = await open(t);
    const acme = await keys.createCustomer('acme');
    const bob = await users.create(acme.id, 'bob@acme.example', HASH);
    const amy = await users.create(acme.id, 'amy@acme.example', HASH);
    for (const [n, userId] of [[1, bob.id], [2, bob.id], [3, bob.id], [4, amy.id]] as const) {
      await sessions.insert(sessionRow({ idHash: hash(n), role: 'customer', userId, credentialTag: null }));
    }
    t.equal(await sessions.removeOthersOfUser(bob.id, hash(1)), 2);
    t.ok(await sessions.get(hash(1)), 'the kept session stays');
    t.equal(await sessions.get(hash(2)), null);
    t.ok(await sessions.get(hash(4)), "another user's session stays");
    t.equal(await users.remove(bob.id), true);
    t.equal(await users.remove(bob.id), false, 'a second removal finds nothing');
    t.equal(await sessions.get(hash(1)), null, "a removed user's sessions end with it");
    t.equal((await sessions.get(hash(4)))?.userId, amy.id);
  });
}
