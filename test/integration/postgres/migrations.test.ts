// Ten instances starting at once on an empty database: the advisory lock lets one apply each migration,
// the others wait and find nothing left; all succeed and every migration is recorded once.
import t from 'tap';
import { loadPostgresMigrations, migratePostgres } from '../../../src/stores/postgres/migrate.js';
import { createTestDatabase, testPool } from '../../helpers/postgres.js';

t.test('ten concurrent runners: all succeed, each migration applied once', async (t) => {
  const url = await createTestDatabase(t);
  const versions = loadPostgresMigrations().map((m) => m.version);
  t.ok(versions.length >= 2, 'there are migrations to apply');

  const results = await Promise.all(Array.from({ length: 10 }, () => migratePostgres(url)));
  t.same(results.flat().sort((a, b) => a - b), versions, 'each version applied by exactly one runner');
  t.equal(results.filter((applied) => applied.length > 0).length, 1, 'one runner did the work');

  const pool = testPool(t, url, 1);
  const { rows } = await pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  t.same(rows.map((r) => r.version), versions);
  t.same(await migratePostgres(url), [], 'a later start has nothing to do');
});

t.test('a failing migration is not recorded and leaves the ones before it applied', async (t) => {
  const url = await createTestDatabase(t);
  const good = { version: 1, name: 'one', sql: 'CREATE TABLE one (id int); CREATE TABLE two (id int);' };
  const bad = { version: 2, name: 'bad', sql: 'CREATE TABLE three (id int); SELECT no_such_function();' };
  await t.rejects(migratePostgres(url, {}, [good, bad]), /no_such_function/);
  const pool = testPool(t, url, 1);
  t.same((await pool.query('SELECT version FROM schema_migrations')).rows, [{ version: 1 }]);
  t.same((await pool.query(`SELECT to_regclass('three') AS t`)).rows, [{ t: null }], 'the failed file left nothing');
  t.same(await migratePostgres(url, {}, [good, { ...bad, sql: 'CREATE TABLE three (id int);' }]), [2], 'a fixed file applies');
});
