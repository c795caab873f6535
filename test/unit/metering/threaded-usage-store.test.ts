// Usage rows written on their own thread, into the same database file the gateway reads.
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { SqliteUsageStore } from '../../../src/stores/sqlite/sqlite-usage-store.js';
import { ThreadedUsageStore } from '../../../src/stores/sqlite/threaded-usage-store.js';
import type { UsageRecord } from '../../../src/metering/usage-store.js';
import { runNode } from '../../helpers/child-node.js';
import { usageRecord } from './fixtures/usage-record.js';

function stores(t: Test) {
  const url = `file:${join(t.testdir(), 'gw.db')}`;
  const db = openDatabase(url);
  const reads = new SqliteUsageStore(db);
  const store = new ThreadedUsageStore(url, reads);
  t.teardown(async () => {
    await store.close();
    db.close();
  });
  return { db, store };
}

const rows = (n: number, over: Partial<UsageRecord> = {}) => Array.from({ length: n }, (_, i) => usageRecord({ requestId: `req_${i}`, ...over }));

t.test('rows written by the thread are read on the caller’s connection, rollup included', async (t) => {
  const { db, store } = stores(t);
  await store.insertBatch(rows(150));
  t.equal((db.prepare('SELECT count(*) AS n FROM usage_records').get() as { n: number }).n, 150, 'every row, over several transactions');
  t.match(await store.totals(), { requests: 150, inputTokens: 1500, outputTokens: 3000 });
  const [day] = await store.query();
  t.match(day, { day: '2030-03-01', requests: 150 });
});

t.test('a batch the database refuses fails alone; the thread goes on', async (t) => {
  const { store } = stores(t);
  // model is NOT NULL in the schema.
  await t.rejects(store.insertBatch(rows(3, { model: null as unknown as string })), /NOT NULL/);
  await store.insertBatch(rows(2));
  t.equal((await store.totals()).requests, 2);
});

t.test('writing holds up no event-loop turn', async (t) => {
  const { store } = stores(t);
  await store.insertBatch(rows(1)); // the thread is up
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  await store.insertBatch(rows(20_000));
  done = true;
  t.ok(turns > 10, `the event loop turned ${turns} times while 20,000 rows were written`);
  t.equal((await store.totals()).requests, 20_001);
});

t.test('after close, batches are refused (the writer keeps and counts them)', async (t) => {
  const { store } = stores(t);
  await store.insertBatch(rows(1));
  await Promise.all([store.close(), store.close()]);
  await store.close();
  t.pass('closing twice, at once or after, ends');
  await t.rejects(store.insertBatch(rows(1)), /closed/);
});

t.test('a batch on its way keeps the process up; an idle thread does not', async (t) => {
  const url = `file:${join(t.testdir(), 'gw.db')}`;
  openDatabase(url).close();
  const run = await runNode(join(import.meta.dirname, 'fixtures/write-and-leave.js'), [url]);
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'written\n', 'the process waited for the batch, then ended by itself');
  const db = openDatabase(url);
  t.teardown(() => db.close());
  t.equal((db.prepare('SELECT count(*) AS n FROM usage_records').get() as { n: number }).n, 2);
});

t.test('last-use times are written by the thread; while another connection holds the lock, only the thread waits', async (t) => {
  const { db, store } = stores(t);
  const keys = new SqliteKeyStore(db);
  const { record } = await keys.createKey({ customerName: 'acme' });
  const lastUsed = () => (db.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').get(record.id) as { last_used_at: string | null }).last_used_at;
  const at = Date.parse('2030-03-01T10:00:00Z');
  await store.touchLastUsed([{ id: record.id, at }]);
  t.equal(lastUsed(), new Date(at).toISOString(), 'written, and read on the caller\'s connection');
  await store.touchLastUsed([{ id: record.id, at: at - 1000 }]);
  t.equal(lastUsed(), new Date(at).toISOString(), 'never moved backwards');

  const other = openDatabase(`file:${db.name}`);
  t.teardown(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  let settled = false;
  const writing = store.touchLastUsed([{ id: record.id, at: at + 1000 }]).finally(() => (settled = true));
  let turns = 0;
  for (const until = Date.now() + 50; Date.now() < until; turns++) await new Promise((resolve) => setImmediate(resolve));
  t.notOk(settled, 'the write waits for the lock');
  t.ok(turns > 5, `the event loop turned ${turns} times meanwhile`);
  other.exec('COMMIT');
  await writing;
  t.equal(lastUsed(), new Date(at + 1000).toISOString(), 'written once the lock was free');
  await store.close();
  await t.rejects(store.touchLastUsed([{ id: record.id, at }]), /closed/, 'refused after close');
});
