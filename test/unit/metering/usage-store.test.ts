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

t.test('queries use the indexes', async (t) => {
  const db = openDatabase('file::memory:');
  t.teardown(() => db.close());
  const plan = (sql: string) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; ');
  t.match(plan("SELECT * FROM usage_records WHERE customer_id = 'x' AND day >= '2030'"), /usage_customer_day/);
  t.match(plan("SELECT * FROM usage_records WHERE key_id = 'x'"), /usage_key_day/);
  t.match(plan("SELECT * FROM usage_records WHERE model = 'x'"), /usage_model_day/);
  t.match(plan("SELECT * FROM usage_records WHERE day >= '2030'"), /usage_day/);
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
