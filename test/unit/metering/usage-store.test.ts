import t from 'tap';
import { join } from 'node:path';
import { openDatabase } from '../../../src/db/open.js';
import { SqliteKeyStore } from '../../../src/keys/sqlite-key-store.js';
import { SqliteUsageStore } from '../../../src/metering/sqlite-usage-store.js';
import { isDay, UsageQueryError } from '../../../src/metering/usage-store.js';
import { usageRecord } from './fixtures/usage-record.js';

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

t.test('records are grouped by day, customer and model and filtered by customer, key, model and day', async (t) => {
  const db = openDatabase(`file:${join(t.testdir(), 'gw.db')}`);
  t.teardown(() => db.close());
  const keys = new SqliteKeyStore(db);
  const a = await keys.createKey({ customerName: 'acme' });
  const a2 = await keys.createKey({ customerName: 'acme' });
  const b = await keys.createKey({ customerName: 'beta' });
  const of = (k: typeof a) => ({ customerId: k.record.customerId, keyId: k.record.id });
  const day1 = Date.parse('2030-03-01T23:59:59Z');
  const day2 = Date.parse('2030-03-02T00:00:00Z');
  const store = new SqliteUsageStore(db);
  await store.insertBatch([
    usageRecord({ ...of(a), at: day1 }),
    usageRecord({ ...of(a2), at: day1, status: 429, inputTokens: 0, outputTokens: 0 }),
    usageRecord({ ...of(a), at: day2, model: 'claude-opus-4-7' }),
    usageRecord({ ...of(b), at: day2, surface: 'chat' }),
    usageRecord({ at: day2, status: 401, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }),
  ]);

  const all = await store.query();
  t.same(
    all.map((r) => [r.day, r.customerName, r.model, r.requests, r.errors, r.inputTokens]),
    [
      ['2030-03-02', null, 'claude-haiku-4-5-20251001', 1, 1, 0],
      ['2030-03-02', 'acme', 'claude-opus-4-7', 1, 0, 10],
      ['2030-03-02', 'beta', 'claude-haiku-4-5-20251001', 1, 0, 10],
      ['2030-03-01', 'acme', 'claude-haiku-4-5-20251001', 2, 1, 10],
    ],
  );
  t.match(all[3], { customerId: a.record.customerId, outputTokens: 20, cacheReadTokens: 6, cacheWriteTokens: 8 });

  const count = async (q: Parameters<typeof store.totals>[0]) => (await store.totals(q)).requests;
  t.equal(await count({}), 5);
  t.equal(await count({ customerId: a.record.customerId }), 3);
  t.equal(await count({ keyId: a2.record.id }), 1);
  t.equal(await count({ model: 'claude-opus-4-7' }), 1);
  t.equal(await count({ since: '2030-03-02' }), 3);
  t.equal(await count({ until: '2030-03-01' }), 2);
  t.equal(await count({ since: '2030-03-02', until: '2030-03-02', customerId: a.record.customerId }), 1);
  t.same(await store.totals({ customerId: 'nobody' }), {
    requests: 0,
    errors: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  t.same(await store.totals({ customerId: a.record.customerId }), {
    requests: 3,
    errors: 1,
    inputTokens: 20,
    outputTokens: 40,
    cacheReadTokens: 9,
    cacheWriteTokens: 12,
  });
  await t.rejects(store.query({ since: '01/03/2030' }), UsageQueryError);
  await t.rejects(store.totals({ until: "2030-03-01' OR 1=1" }), UsageQueryError);
});

t.test('reports read the daily rollup through its indexes; the per-request rows carry no secondary index', async (t) => {
  const db = openDatabase('file::memory:');
  t.teardown(() => db.close());
  const plan = (sql: string) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; ');
  t.match(plan("SELECT * FROM usage_daily WHERE customer_id = 'x' AND day >= '2030'"), /usage_daily_customer/);
  t.match(plan("SELECT * FROM usage_daily WHERE key_id = 'x'"), /usage_daily_key/);
  t.match(plan("SELECT * FROM usage_daily WHERE model = 'x'"), /usage_daily_model/);
  t.match(plan("SELECT * FROM usage_daily WHERE day >= '2030'"), /PRIMARY KEY|sqlite_autoindex/);
  t.same(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'usage_records'").all(), []);
});

t.test('the rollup always equals the per-request rows summed, batch after batch', async (t) => {
  const db = openDatabase('file::memory:');
  t.teardown(() => db.close());
  const store = new SqliteUsageStore(db);
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pick = <T>(items: readonly T[]) => items[next(items.length)] as T;
  const start = Date.parse('2030-03-01T20:00:00Z');
  for (let batch = 0; batch < 12; batch++) {
    const rows = Array.from({ length: 1 + next(60) }, (_, i) =>
      usageRecord({
        at: start + next(10 * 3_600_000),
        requestId: `req_${batch}_${i}`,
        customerId: pick(['cus_a', 'cus_b', null]),
        keyId: pick(['key_1', 'key_2', null]),
        model: pick(['m-one', 'm-two']),
        status: pick([200, 200, 429, 500]),
        inputTokens: next(1000),
        outputTokens: next(1000),
        cacheReadTokens: next(50),
        cacheWriteTokens: next(50),
      }),
    );
    await store.insertBatch(rows);
  }
  const fromRows = db
    .prepare(
      `SELECT day, customer_id AS customerId, model, count(*) AS requests, sum(status >= 400) AS errors,
         sum(input_tokens) AS inputTokens, sum(output_tokens) AS outputTokens,
         sum(cache_read_tokens) AS cacheReadTokens, sum(cache_write_tokens) AS cacheWriteTokens
       FROM usage_records GROUP BY day, customer_id, model ORDER BY day DESC, customer_id, model`,
    )
    .all();
  const sortKey = (r: { day: string; customerId: string | null; model: string }) => `${r.day}|${r.customerId ?? ''}|${r.model}`;
  const reported = (await store.query()).map(({ customerName: _, ...r }) => r).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
  const expected = (fromRows as typeof reported).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
  t.ok(expected.length > 6, `${expected.length} groups`);
  t.same(reported, expected);
  for (const keyId of ['key_1', 'key_2']) {
    const direct = db.prepare('SELECT count(*) AS n, sum(output_tokens) AS out FROM usage_records WHERE key_id = ?').get(keyId) as { n: number; out: number };
    const totals = await store.totals({ keyId });
    t.same([totals.requests, totals.outputTokens], [direct.n, direct.out], keyId);
  }
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
  const { loadMigrations, migrate } = await import('../../../src/db/migrate.js');
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  const all = loadMigrations();
  migrate(db, all.filter((m) => m.version < 3 || m.version >= 100));
  const insert = db.prepare(
    `INSERT INTO usage_records (at, day, request_id, customer_id, key_id, model, surface, input_tokens, output_tokens,
       cache_read_tokens, cache_write_tokens, status, duration_ms, outcome) VALUES (0, ?, 'r', ?, ?, ?, 'chat', ?, 5, 1, 2, ?, 3, 'ok')`,
  );
  insert.run('2030-03-01', 'cus_a', 'key_1', 'm', 10, 200);
  insert.run('2030-03-01', 'cus_a', 'key_1', 'm', 20, 500);
  insert.run('2030-03-01', null, null, 'm', 0, 401);
  insert.run('2030-03-02', 'cus_a', 'key_2', 'm', 7, 200);
  t.same(migrate(db, all), [3]);
  const store = new SqliteUsageStore(db);
  t.same(await store.totals({ customerId: 'cus_a' }), { requests: 3, errors: 1, inputTokens: 37, outputTokens: 15, cacheReadTokens: 3, cacheWriteTokens: 6 });
  t.same(await store.totals({ keyId: 'key_1', until: '2030-03-01' }), { requests: 2, errors: 1, inputTokens: 30, outputTokens: 10, cacheReadTokens: 2, cacheWriteTokens: 4 });
  // Without a customer row, both names are null: the order within the day is then the insertion's.
  const day1 = await store.query({ since: '2030-03-01', until: '2030-03-01' });
  t.same(day1.map((r) => [r.customerId, r.requests, r.errors]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))), [
    ['cus_a', 2, 1],
    [null, 1, 1],
  ]);
});
