// `model-gateway migrate`: ten processes at once on a fresh PostgreSQL database all succeed and apply each
// migration exactly once (the advisory lock, src/stores/postgres/migrate.ts); on SQLite it reports what
// opening the file applied; a database it cannot reach is one line on stderr.
import { join } from 'node:path';
import t from 'tap';
import { runMigrate } from '../../../src/apps/cli/migrate.js';
import { loadPostgresMigrations } from '../../../src/stores/postgres/migrate.js';
import { loadSqliteMigrations } from '../../../src/stores/sqlite/migrate.js';
import { GATEWAY_MAIN, runNode } from '../../helpers/child-node.js';
import { createTestDatabase, testPool } from '../../helpers/postgres.js';

// Ten processes, each compiling the command first: slow on a busy machine.
t.setTimeout(300_000);


function captured() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => void (out += s), err: (s: string) => void (err += s) }, out: () => out, err: () => err };
}

t.test('ten migrate processes at once on a fresh database: all exit 0, each migration applied once', async (t) => {
  const url = await createTestDatabase(t);
  const versions = loadPostgresMigrations().map((m) => m.version);
  const runs = await Promise.all(Array.from({ length: 10 }, () => runNode(GATEWAY_MAIN, ['migrate'], { DATABASE_URL: url })));
  t.same(runs.map((r) => r.code), Array(10).fill(0), `all exit 0: ${runs.map((r) => r.stderr).join('')}`);
  t.same(runs.map((r) => r.stderr), Array(10).fill(''), 'nothing on stderr');

  const lines = runs.map((r) => r.stdout.trim());
  const appliers = lines.filter((line) => line !== 'nothing to apply');
  t.same(appliers, [`applied ${versions.length} migrations (${versions.join(', ')})`], `one process applied them all: ${JSON.stringify(lines)}`);

  const pool = testPool(t, url, 1);
  const { rows } = await pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  t.same(rows.map((r) => r.version), versions, 'one schema_migrations row per migration');

  const again = captured();
  t.equal(await runMigrate([], { databaseUrl: url }, again.io), 0);
  t.equal(again.out(), 'nothing to apply\n', 'a later run has nothing to do');
});

t.test('SQLite: the migrations opening a fresh file applied, then none', async (t) => {
  const url = `file:${join(t.testdir(), 'gateway.db')}`;
  const versions = loadSqliteMigrations().map((m) => m.version);
  const first = captured();
  t.equal(await runMigrate([], { databaseUrl: url }, first.io), 0, first.err());
  t.equal(first.out(), `applied ${versions.length} migrations (${versions.join(', ')})\n`);
  const second = captured();
  t.equal(await runMigrate([], { databaseUrl: url }, second.io), 0, second.err());
  t.equal(second.out(), 'nothing to apply\n');
});

t.test('failures are one line on stderr, and never show the password', async (t) => {
  const unreachable = captured();
  t.equal(await runMigrate([], { databaseUrl: 'postgres://gw:hunter2-secret@127.0.0.1:1/gateway' }, unreachable.io), 1);
  t.match(unreachable.err(), /^model-gateway migrate: cannot migrate the PostgreSQL database: .*ECONNREFUSED.*\n$/);
  t.notOk(unreachable.err().includes('hunter2'), 'the password is not shown');
  t.equal(unreachable.out(), '');

  const extra = captured();
  t.equal(await runMigrate(['now'], { databaseUrl: 'file::memory:' }, extra.io), 2, 'an argument is a usage error');
  t.equal(extra.err(), 'model-gateway migrate: unexpected argument (usage: migrate)\n');
});
