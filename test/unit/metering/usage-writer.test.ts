import t, { type Test } from 'tap';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteUsageStore } from '../../../src/stores/sqlite/sqlite-usage-store.js';
import type { UsageQuery, UsageRecord, UsageStore } from '../../../src/metering/usage-store.js';
import type { SpendOverviewQuery } from '../../../src/metering/spend-overview.js';
import { UsageWriter, type UsageWriterOptions } from '../../../src/metering/usage-writer.js';
import { waitFor } from '../../helpers/wait.js';
import { usageRecord } from './fixtures/usage-record.js';

/** The real SQLite store, with a switch that makes writes fail (a full disk, a locked file) and a log of batches. */
class FlakyStore implements UsageStore {
  failing = false;
  readonly batches: number[] = [];
  constructor(private readonly real: SqliteUsageStore) {}
  async insertBatch(rows: UsageRecord[]): Promise<void> {
    if (this.failing) throw new Error('disk I/O error');
    this.batches.push(rows.length);
    await this.real.insertBatch(rows);
  }
  query(q?: UsageQuery) {
    return this.real.query(q);
  }
  totals(q?: UsageQuery) {
    return this.real.totals(q);
  }
  spendOverview(q: SpendOverviewQuery) {
    return this.real.spendOverview(q);
  }
}

function setup(t: Test, opts: UsageWriterOptions = {}) {
  const db = openDatabase('file::memory:');
  const store = new FlakyStore(new SqliteUsageStore(db));
  const errors: unknown[] = [];
  const writer = new UsageWriter(store, { flushMs: 3600_000, onError: (e) => errors.push(e), ...opts });
  t.teardown(async () => {
    await writer.close();
    db.close();
  });
  const stored = async () => (await store.totals()).requests;
  return { store, writer, errors, stored };
}

const records = (n: number) => Array.from({ length: n }, (_, i) => usageRecord({ requestId: `req_${i}` }));


t.test('flush writes in batches of at most rowsPerWrite', async (t) => {
  const { store, writer, stored } = setup(t, { rowsPerWrite: 3 });
  for (const r of records(7)) writer.record(r);
  await writer.flush();
  t.same(store.batches, [3, 3, 1]);
  t.equal(await stored(), 7);
  t.equal(writer.pending, 0);
  t.equal(writer.stats.written, 7);
});

t.test('a full batch is written without waiting for the timer', async (t) => {
  const { writer, stored } = setup(t, { flushAt: 5 });
  for (const r of records(5)) writer.record(r);
  t.equal(writer.pending, 5, 'record itself never writes');
  await waitFor(async () => (await stored()) === 5, 5000, 5);
  t.equal(writer.pending, 0);
});

t.test('a long flush lets the event loop run between two writes', async (t) => {
  const { store, writer, stored } = setup(t, { rowsPerWrite: 10 });
  for (const r of records(50)) writer.record(r);
  const flushed = writer.flush();
  const pendingWhenTheLoopRan = await new Promise<number>((resolve) => setImmediate(() => resolve(writer.pending)));
  t.ok(pendingWhenTheLoopRan > 0 && pendingWhenTheLoopRan < 50, `the loop ran mid-flush (${pendingWhenTheLoopRan} rows still pending)`);
  await flushed;
  t.same(store.batches, [10, 10, 10, 10, 10]);
  t.equal(await stored(), 50);
});

t.test('a flush writes the rows of its start; rows that arrive during its write wait for the next flush, and close writes them', async (t) => {
  const { store, writer, stored } = setup(t, { flushAt: 3, rowsPerWrite: 100 });
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const insert = store.insertBatch.bind(store);
  store.insertBatch = async (rows) => {
    if (store.batches.length === 0) await gate;
    return insert(rows);
  };
  const rows = Array.from({ length: 6 }, (_, i) => usageRecord({ requestId: `req_${i}` }));
  for (const r of rows.slice(0, 3)) writer.record(r);
  await new Promise((resolve) => setImmediate(resolve));
  writer.record(rows[3]!);
  writer.record(rows[4]!);
  open();
  await waitFor(async () => (await stored()) === 3, 5000, 5);
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.same(store.batches, [3], 'the rows that came during the write were not chased with a small batch');
  t.equal(writer.pending, 2);
  writer.record(rows[5]!);
  await waitFor(async () => (await stored()) === 6, 5000, 5);
  t.same(store.batches, [3, 3], 'the next flush at flushAt rows took them together');
  writer.record(usageRecord({ requestId: 'req_last' }));
  await writer.close();
  t.equal(await stored(), 7, 'close wrote the rest');
});

t.test('the timer flushes a partial batch', async (t) => {
  const { writer, stored } = setup(t, { flushMs: 10 });
  writer.record(usageRecord());
  await waitFor(async () => (await stored()) === 1, 5000, 5);
  t.pass('written by the timer');
});

t.test('a failed write keeps the rows and the next flush writes them', async (t) => {
  const { store, writer, errors, stored } = setup(t);
  store.failing = true;
  for (const r of records(4)) writer.record(r);
  await t.rejects(writer.flush(), /disk I\/O error/);
  t.equal(writer.pending, 4);
  t.equal(writer.stats.failedWrites, 1);
  store.failing = false;
  await writer.flush();
  t.equal(await stored(), 4);
  t.same(writer.stats, { written: 4, dropped: 0, failedWrites: 1, spilled: 0 });
  t.same(errors, [], 'explicit flushes report by rejecting');
});

t.test('the buffer is bounded while the store fails, and drops are counted', async (t) => {
  const { store, writer } = setup(t, { maxBuffered: 3 });
  store.failing = true;
  for (const r of records(5)) writer.record(r);
  t.equal(writer.pending, 3);
  t.equal(writer.stats.dropped, 2);
});

t.test('close writes what is left and later records are dropped', async (t) => {
  const { writer, stored } = setup(t);
  for (const r of records(3)) writer.record(r);
  await writer.close();
  t.equal(await stored(), 3);
  writer.record(usageRecord());
  t.equal(writer.stats.dropped, 1);
  t.equal(writer.pending, 0);
});

t.test('close against a failing store reports and counts the lost rows', async (t) => {
  const { store, writer, errors } = setup(t);
  store.failing = true;
  for (const r of records(2)) writer.record(r);
  await writer.close();
  t.equal(writer.stats.dropped, 2);
  t.equal(errors.length, 1);
});
