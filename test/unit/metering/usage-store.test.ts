import t from 'tap';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteUsageStore } from '../../../src/stores/sqlite/sqlite-usage-store.js';
import { isDay } from '../../../src/metering/usage-store.js';

t.test('isDay accepts real calendar days only', async (t) => {
  const cases: Array<[string, boolean]> = [
    ['2030-03-01', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2030-13-01', false],
    ['2030-3-1', false],
    ['2030-03-01T00:00:00Z', false],
    ['yesterday', false],
  ];
  for (const [s, ok] of cases) t.equal(isDay(s), ok, s);
});

t.test('reports read the daily rollup through its indexes; the per-request rows carry only the index by time', async (t) => {
  const db = openDatabase('file::memory:');
  t.teardown(() => db.close());
  const plan = (sql: string) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; ');
  t.match(plan("SELECT * FROM usage_daily WHERE customer_id = 'x' AND day >= '2030'"), /usage_daily_customer/);
  t.match(plan("SELECT * FROM usage_daily WHERE key_id = 'x'"), /usage_daily_key/);
  t.match(plan("SELECT * FROM usage_daily WHERE model = 'x'"), /usage_daily_model/);
  t.match(plan("SELECT * FROM usage_daily WHERE day >= '2030'"), /PRIMARY KEY|sqlite_autoindex/);
  // Every index is written on each insert: the per-request rows have one, by time, for the operators'
  // overview of the last hour (migration 011), which the plan uses.
  t.same(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'usage_records'").all(), [{ name: 'usage_records_at' }]);
  t.match(plan("SELECT COUNT(*) FROM usage_records WHERE at >= 5"), /usage_records_at/);
});

t.test('dayOf gives the UTC day, also when calls alternate across a day boundary', async (t) => {
  const { dayOf } = await import('../../../src/metering/usage-store.js');
  const cases: Array<[number, string]> = [
    [Date.UTC(2026, 10, 21, 23, 59, 59, 999), '2026-11-21'],
    [Date.UTC(2026, 10, 22, 0, 0, 0, 0), '2026-11-22'],
    [Date.UTC(2026, 10, 21, 12), '2026-11-21'],
    [Date.UTC(2026, 10, 22, 12), '2026-11-22'],
    [Date.UTC(1969, 11, 31, 23), '1969-12-31'],
    [0, '1970-01-01'],
    [Date.UTC(2028, 1, 29, 5), '2028-02-29'],
  ];
  for (let round = 0; round < 2; round++) for (const [ms, day] of cases) t.equal(dayOf(ms), day, `${ms}`);
});

t.test('upgrading a database that already holds usage fills the rollup from its rows', async (t) => {
  const Database = (await import('better-sqlite3')).default;
  const { loadSqliteMigrations, migrate } = await import('../../../src/stores/sqlite/migrate.js');
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  const all = loadSqliteMigrations();
  migrate(db, all.filter((m) => m.version < 3 || m.version >= 100));
  const insert = db.prepare(
    `INSERT INTO usage_records (at, day, request_id, customer_id, key_id, model, surface, input_tokens, output_tokens,
       cache_read_tokens, cache_write_tokens, status, duration_ms, outcome) VALUES (0, ?, 'r', ?, ?, ?, 'chat', ?, 5, 1, 2, ?, 3, 'ok')`,
  );
  insert.run('2030-03-01', 'cus_a', 'key_1', 'm', 10, 200);
  insert.run('2030-03-01', 'cus_a', 'key_1', 'm', 20, 500);
  insert.run('2030-03-01', null, null, 'm', 0, 401);
  insert.run('2030-03-02', 'cus_a', 'key_2', 'm', 7, 200);
  t.same(migrate(db, all.filter((m) => m.version <= 3 || m.version >= 100)), [3]);
  // The later migrations too (005 adds cost columns; rows from before it cost 0).
  migrate(db, all);
  const store = new SqliteUsageStore(db);
  t.same(await store.totals({ customerId: 'cus_a' }), { requests: 3, errors: 1, inputTokens: 37, outputTokens: 15, cacheReadTokens: 3, cacheWriteTokens: 6, costNanoUsd: 0n });
  t.same(await store.totals({ keyId: 'key_1', until: '2030-03-01' }), { requests: 2, errors: 1, inputTokens: 30, outputTokens: 10, cacheReadTokens: 2, cacheWriteTokens: 4, costNanoUsd: 0n });
  // Without a customer row, both names are null: the order within the day is then the insertion's.
  const day1 = await store.query({ since: '2030-03-01', until: '2030-03-01' });
  t.same(day1.map((r) => [r.customerId, r.requests, r.errors]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))), [
    ['cus_a', 2, 1],
    [null, 1, 1],
  ]);
});
