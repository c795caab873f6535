import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDatabaseUrl } from '../../../../src/config/database-url.js';
import { ConfigError } from '../../../../src/config/config-error.js';
import { DatabaseError } from '../../../../src/stores/errors.js';
import { loadSqliteMigrations, migrate } from '../../../../src/stores/sqlite/migrate.js';
import { openDatabase } from '../../../../src/stores/sqlite/open.js';
import { runNode } from '../../../helpers/child-node.js';

t.test('DATABASE_URL forms', async (t) => {
  const cases: Array<[string, ReturnType<typeof parseDatabaseUrl> | 'error']> = [
    ['file:./data/gateway.db', { kind: 'sqlite', path: './data/gateway.db' }],
    ['file:/var/lib/gw.db', { kind: 'sqlite', path: '/var/lib/gw.db' }],
    ['file:///var/lib/gw.db', { kind: 'sqlite', path: '/var/lib/gw.db' }],
    ['file::memory:', { kind: 'sqlite', path: ':memory:' }],
    ['postgres://u:secret@db/gw', { kind: 'postgres' }],
    ['postgresql://db/gw', { kind: 'postgres' }],
    ['file:', 'error'],
    ['mysql://db/gw', 'error'],
    ['./data/gateway.db', 'error'],
  ];
  for (const [url, expected] of cases) {
    if (expected === 'error') t.throws(() => parseDatabaseUrl(url), ConfigError, url);
    else t.same(parseDatabaseUrl(url), expected, url);
  }
});

t.test('a file database is created with its folder, in WAL mode, with the schema', async (t) => {
  const dir = t.testdir();
  const db = openDatabase(`file:${join(dir, 'nested', 'gw.db')}`);
  t.teardown(() => db.close());
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.pragma('foreign_keys', { simple: true }), 1);
  t.equal(db.pragma('busy_timeout', { simple: true }), 5000);
  const versions = db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
  t.same(versions, loadSqliteMigrations().map((m) => m.version));
  t.ok(versions.length >= 2, 'keys and usage migrations exist');
  t.same(migrate(db), [], 'a second run applies nothing');
});

t.test('migrations apply in order and only once', async (t) => {
  const db = openDatabase('file::memory:');
  t.teardown(() => db.close());
  const extra = [{ version: 900, name: 'probe', sql: 'CREATE TABLE probe (x INTEGER);' }];
  t.same(migrate(db, extra), [900]);
  t.same(migrate(db, extra), []);
  t.equal(db.prepare('SELECT name FROM schema_migrations WHERE version = 900').pluck().get(), 'probe');
});

t.test('a failing migration leaves nothing half-applied', async (t) => {
  const db = openDatabase('file::memory:');
  t.teardown(() => db.close());
  const broken = [
    { version: 901, name: 'good', sql: 'CREATE TABLE good (x INTEGER);' },
    { version: 902, name: 'bad', sql: 'CREATE TABLE nonsense (;' },
  ];
  t.throws(() => migrate(db, broken));
  t.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'good'").pluck().get(), 0);
  t.equal(db.prepare('SELECT count(*) FROM schema_migrations WHERE version > 900').pluck().get(), 0);
});

t.test('the SQLite opener refuses a PostgreSQL URL without repeating it (openStores sends those elsewhere)', async (t) => {
  const err = t.throws(() => openDatabase('postgres://admin:hunter2@db:5432/gw')) as Error;
  t.equal(err.message, 'not a SQLite database URL (file:...)');
});

t.test('a file that is not a database gives a one-line DatabaseError', async (t) => {
  const dir = t.testdir({ 'junk.db': 'this is not sqlite, just text that is long enough to have a header'.repeat(20) });
  const err = t.throws(() => openDatabase(`file:${join(dir, 'junk.db')}`)) as Error;
  t.type(err, DatabaseError);
  t.match(err.message, /^cannot open database .*junk\.db: /);
  t.notMatch(err.message, /\n/);
});

t.test('a path under a regular file cannot be opened', async (t) => {
  const dir = t.testdir();
  writeFileSync(join(dir, 'plain'), 'x');
  t.throws(() => openDatabase(`file:${join(dir, 'plain', 'gw.db')}`), DatabaseError);
});

t.test('several processes opening one fresh file at once all succeed and migrate it once', async (t) => {
  const file = join(t.testdir(), 'shared.db');
  const child = fileURLToPath(new URL('./fixtures/open-db.js', import.meta.url));
  const results = await Promise.all([1, 2, 3, 4].map(() => runNode(child, [`file:${file}`])));
  for (const r of results) t.equal(r.code, 0, r.stderr);
  const db = openDatabase(`file:${file}`);
  t.teardown(() => db.close());
  const rows = db.prepare('SELECT version, count(*) AS n FROM schema_migrations GROUP BY version').all();
  t.same(rows.map((r) => (r as { n: number }).n), loadSqliteMigrations().map(() => 1));
});
