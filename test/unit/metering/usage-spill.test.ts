// The usage spill file: rows a failing store cannot take go to the file (after spillAfterMs, when the buffer
// is full, at close), come back first once the store answers, and the file goes only after they are all
// written; a process that starts takes over the files of processes no longer running, never a running one's;
// the bound refuses and counts; half a line left by a crash is skipped and counted.
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { UsageSpill } from '../../../src/metering/usage-spill.js';
import type { UsageRecord, UsageSink } from '../../../src/metering/usage-store.js';
import { UsageWriter } from '../../../src/metering/usage-writer.js';
import { waitFor } from '../../helpers/wait.js';
import { usageRecord } from './fixtures/usage-record.js';

/** A store that fails while `down`, keeping what it took by request id (as the real ones do). */
function switchableSink(): UsageSink & { down: boolean; rows: Map<string, UsageRecord>; writes: number } {
  const sink = {
    down: false,
    writes: 0,
    rows: new Map<string, UsageRecord>(),
    async insertBatch(rows: UsageRecord[]) {
      if (sink.down) throw new Error('the database is not answering');
      sink.writes++;
      for (const r of rows) if (!sink.rows.has(r.requestId)) sink.rows.set(r.requestId, r);
    },
  };
  return sink;
}

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-spill-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const spillFiles = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('usage-spill-'));
const records = (n: number, from = 0) => Array.from({ length: n }, (_, i) => usageRecord({ requestId: `req_${from + i}` }));

t.test('rows of a long failure go to the file and come back, once, when the store answers', async (t) => {
  const dir = tempDir(t);
  const sink = switchableSink();
  sink.down = true;
  const spill = await UsageSpill.open({ dir, maxRows: 1000 });
  const writer = new UsageWriter(sink, { flushMs: 20, spill, spillAfterMs: 0 });
  for (const r of records(50)) writer.record(r);
  await waitFor(() => writer.spilledPending === 50, 5000);
  t.equal(writer.pending, 0, 'nothing left in memory');
  t.equal(spillFiles(dir).length, 1);
  for (const r of records(10, 50)) writer.record(r);
  sink.down = false;
  await waitFor(() => writer.spilledPending === 0 && writer.pending === 0, 5000);
  t.equal(sink.rows.size, 60, 'every row written');
  t.same(spillFiles(dir), [], 'the file is gone once written');
  await writer.close();
  t.equal(writer.stats.dropped, 0);
});

t.test('a close while the store fails leaves the rows in the file; the next process writes them', async (t) => {
  const dir = tempDir(t);
  const sink = switchableSink();
  sink.down = true;
  // The first process has exited: its pid is not running any more.
  const first = new UsageWriter(sink, { flushMs: 60_000, spill: await UsageSpill.open({ dir, maxRows: 1000, pid: 111, isRunning: () => false }) });
  for (const r of records(30)) first.record(r);
  await first.close();
  t.equal(first.stats.dropped, 0, 'nothing dropped at close');
  t.same(spillFiles(dir), ['usage-spill-111.ndjson']);

  // Another instance on the same host, still running, keeps its file.
  appendFileSync(join(dir, 'usage-spill-222.ndjson'), JSON.stringify(usageRecord({ requestId: 'req_theirs' })) + '\n');
  sink.down = false;
  const spill = await UsageSpill.open({ dir, maxRows: 1000, pid: 333, isRunning: (pid) => pid === 222 });
  t.equal(spill.rows, 30, 'the stopped process\'s rows are taken over');
  const next = new UsageWriter(sink, { flushMs: 20, spill });
  await waitFor(() => next.spilledPending === 0, 5000);
  t.equal(sink.rows.size, 30);
  t.notOk(sink.rows.has('req_theirs'), 'a running process\'s file is left alone');
  t.same(spillFiles(dir), ['usage-spill-222.ndjson']);
  await next.close();
});

t.test('a full buffer goes to the file; beyond the file\'s bound rows are dropped and counted', async (t) => {
  const dir = tempDir(t);
  const sink = switchableSink();
  sink.down = true;
  const writer = new UsageWriter(sink, { flushMs: 60_000, maxBuffered: 10, spill: await UsageSpill.open({ dir, maxRows: 25 }) });
  for (const r of records(45)) writer.record(r);
  await waitFor(() => writer.spilledPending + writer.stats.dropped === 40, 5000);
  t.equal(writer.spilledPending, 25, 'the file holds its bound');
  t.equal(writer.stats.dropped, 15, 'the rest counted as dropped');
  t.equal(writer.pending, 5, 'the newest rows still in memory');
  sink.down = false;
  await writer.close();
  t.equal(sink.rows.size, 30, 'what was kept is written');
});

t.test('half a line left by a crash is skipped and counted; the rows before it are written', async (t) => {
  const dir = tempDir(t);
  const lines = records(3).map((r) => JSON.stringify(r)).join('\n');
  appendFileSync(join(dir, 'usage-spill-444.ndjson'), `${lines}\n{"at":17000000`);
  const sink = switchableSink();
  const spill = await UsageSpill.open({ dir, maxRows: 1000, pid: 555, isRunning: () => false });
  await spill.replay((rows) => sink.insertBatch(rows), 2);
  t.equal(sink.rows.size, 3);
  t.equal(spill.unreadableRows, 1);
  t.same(spillFiles(dir), []);
});

t.test('a replay cut short keeps the file and starts over: rows already written are not counted twice', async (t) => {
  const dir = tempDir(t);
  appendFileSync(join(dir, 'usage-spill-666.ndjson'), records(10).map((r) => JSON.stringify(r) + '\n').join(''));
  const sink = switchableSink();
  const spill = await UsageSpill.open({ dir, maxRows: 1000, pid: 777, isRunning: () => false });
  let batches = 0;
  const failing = (rows: UsageRecord[]) => (++batches === 3 ? Promise.reject(new Error('lost the connection')) : sink.insertBatch(rows));
  await t.rejects(spill.replay(failing, 2));
  t.equal(spillFiles(dir).length, 1, 'the file stays');
  t.equal(spill.rows, 10);
  await spill.replay((rows) => sink.insertBatch(rows), 2);
  t.equal(sink.rows.size, 10);
  t.same(spillFiles(dir), []);
  t.equal(spill.rows, 0);
});

t.test('spill files are 0600, and a replayed row that is not a usage row is skipped and counted', async (t) => {
  const dir = tempDir(t);
  const sink = switchableSink();
  sink.down = true;
  const spill = await UsageSpill.open({ dir, maxRows: 1000, pid: 556, isRunning: () => false });
  t.equal(await spill.append(records(1)), 0);
  const [file] = spillFiles(dir);
  t.equal(statSync(join(dir, file)).mode & 0o777, 0o600, 'owner only');

  // A file edited on disk: a negative cost, a string count, an unknown surface, a missing id.
  const good = records(2, 10).map((r) => JSON.stringify(r));
  const bad = [
    { ...usageRecord({ requestId: 'neg' }), costNanoUsd: -5_000_000_000 },
    { ...usageRecord({ requestId: 'str' }), inputTokens: '1e9' },
    { ...usageRecord({ requestId: 'surf' }), surface: 'admin' },
    { ...usageRecord({ requestId: 'x' }), requestId: 7 },
    [1, 2],
  ].map((r) => JSON.stringify(r));
  appendFileSync(join(dir, 'usage-spill-777.ndjson'), [...good, ...bad].join('\n') + '\n');
  const next = await UsageSpill.open({ dir, maxRows: 1000, pid: 557, isRunning: () => false });
  sink.down = false;
  await next.replay((rows) => sink.insertBatch(rows), 10);
  t.same([...sink.rows.keys()].sort(), ['req_0', 'req_10', 'req_11'], 'only the valid rows reach the store');
  t.equal(next.unreadableRows, bad.length, 'each bad row counted');
});
