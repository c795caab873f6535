import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { SessionStore } from '../../../../src/admin/auth/session-store.js';
import { SqliteSessionRows } from '../../../../src/stores/sqlite/sqlite-session-rows.js';
import { SqliteUserStore } from '../../../../src/stores/sqlite/sqlite-user-store.js';
import { openDatabase } from '../../../../src/stores/sqlite/open.js';
import { SqliteKeyStore } from '../../../../src/stores/sqlite/sqlite-key-store.js';

function setup(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-sessions-'));
  const db = openDatabase(`file:${join(dir, 'g.db')}`);
  t.teardown(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let now = 1_700_000_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const sessions = new SessionStore(new SqliteSessionRows(db), { lifetimeMs: 10 * 60_000, idleMs: 3 * 60_000 }, clock.now);
  return { db, clock, sessions };
}

t.test('a session lives until its idle limit, its lifetime, or its removal', async (t) => {
  const { clock, sessions, db } = setup(t);
  const { id, session } = await sessions.create('operator', null);
  t.match(id, /^[\w-]{43}$/);
  const stored = db.prepare('SELECT id_hash FROM dashboard_sessions').all() as Array<{ id_hash: Buffer }>;
  t.same(stored.map((r) => r.id_hash.toString('hex')), [createHash('sha256').update(id).digest('hex')], 'only a hash of the id is stored');
  t.same(await sessions.get(id), session);

  clock.advance(2 * 60_000);
  t.ok(await sessions.get(id), 'used within the idle limit');
  clock.advance(2 * 60_000);
  t.ok(await sessions.get(id), 'still alive: the last use was 2 minutes ago');
  clock.advance(3 * 60_000 + 1);
  t.equal(await sessions.get(id), null, 'idle too long');

  const second = await sessions.create('operator', null);
  for (let i = 0; i < 5; i++) {
    clock.advance(2 * 60_000);
    await sessions.get(second.id);
  }
  t.equal(await sessions.get(second.id), null, 'ended at its lifetime despite use');

  const third = await sessions.create('operator', null);
  await sessions.remove(third.id);
  t.equal(await sessions.get(third.id), null, 'removed');
  t.equal(await sessions.get('made-up'), null);
});

t.test('customer sessions belong to a user and end with it', async (t) => {
  const { sessions, db } = setup(t);
  const customer = await new SqliteKeyStore(db).createCustomer('acme');
  const users = new SqliteUserStore(db);
  const user = await users.create(customer.id, 'a@acme.example', 'scrypt$1$1$1$x$y');
  const { id } = await sessions.create('customer', user.id);
  t.equal((await sessions.get(id))?.userId, user.id);
  await users.remove(user.id);
  t.equal(await sessions.get(id), null);
  const insert = db.prepare(
    "INSERT INTO dashboard_sessions (id_hash, role, user_id, csrf_token, created_at, last_seen_at, expires_at) VALUES (randomblob(32), ?, ?, 't', 0, 0, 0)",
  );
  t.throws(() => insert.run('customer', null), /CHECK constraint/, 'a customer session needs a user');
  t.throws(() => insert.run('operator', user.id), /CHECK constraint/, 'an operator session has none');
});
