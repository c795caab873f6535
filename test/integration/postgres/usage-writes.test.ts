// PostgreSQL usage writes across instances: overlapping batches written at once by two pools (two
// instances retrying the same rows) are stored and counted once, without deadlock; each month's rows land
// in a partition of its own, which can be detached while the rollup keeps the month's sums.
import t from 'tap';
import { PostgresUsageStore } from '../../../src/stores/postgres/postgres-usage-store.js';
import { emptyStores, migratedDatabase, testPool } from '../../helpers/postgres.js';
import { usageRecord } from '../../unit/metering/fixtures/usage-record.js';

const { url, pool } = await migratedDatabase(t);

t.test('overlapping batches from two instances at once: every row once, the rollup counts each once', async (t) => {
  await emptyStores(pool);
  const one = new PostgresUsageStore(pool);
  const two = new PostgresUsageStore(testPool(t, url, 4));
  const day = Date.parse('2030-05-10T10:00:00Z');
  const records = Array.from({ length: 400 }, (_, i) =>
    usageRecord({ at: day + i * 1000, requestId: `req_${i}`, customerId: `cus_${i % 7}`, keyId: `key_${i % 13}`, model: `m-${i % 3}` }),
  );
  // Eight writers, each a shuffled, overlapping slice: lock order must not depend on the order given.
  const slices = Array.from({ length: 8 }, (_, w) => {
    const slice = records.slice((w * 40) % 300, ((w * 40) % 300) + 100);
    return w % 2 === 0 ? slice : [...slice].reverse();
  });
  await Promise.all(slices.map((slice, w) => (w % 2 === 0 ? one : two).insertBatch(slice)));
  await Promise.all(slices.map((slice, w) => (w % 2 === 0 ? two : one).insertBatch(slice)));

  const written = new Set(slices.flat().map((r) => r.requestId));
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM usage_records');
  t.equal(rows[0].n, written.size, 'one row per request id');
  const totals = await one.totals();
  t.equal(totals.requests, written.size, 'the rollup counts each request once');
  t.equal(totals.inputTokens, written.size * 10);
});

t.test('months get partitions of their own; a detached month leaves the rollup whole', async (t) => {
  await emptyStores(pool);
  const store = new PostgresUsageStore(pool);
  await store.insertBatch([
    usageRecord({ requestId: 'req_jan', at: Date.parse('2030-01-31T23:59:59Z') }),
    usageRecord({ requestId: 'req_feb', at: Date.parse('2030-02-01T00:00:00Z') }),
  ]);
  const { rows } = await pool.query<{ partition: string; n: number }>(
    `SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM usage_records GROUP BY 1 ORDER BY 1`,
  );
  t.same(rows, [
    { partition: 'usage_records_203001', n: 1 },
    { partition: 'usage_records_203002', n: 1 },
  ]);
  await pool.query('ALTER TABLE usage_records DETACH PARTITION usage_records_203001');
  t.same((await pool.query('SELECT request_id FROM usage_records')).rows, [{ request_id: 'req_feb' }]);
  t.equal((await store.totals({ until: '2030-01-31' })).requests, 1, 'the detached month is still in the rollup');
  await pool.query('DROP TABLE usage_records_203001');
});
