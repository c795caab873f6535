// What a last-use write costs the event loop while the usage thread writes rows into the same
// database file: written on the event loop's own connection (`main`, the gateway before 2026-11-24
// late evening: SQLite's busy handler sleeps 1, 2, 5, 10… ms whenever the thread holds the write lock,
// and the thread runs at a lower priority, so on a busy machine it keeps the lock longer), or handed
// to the write thread (`thread`, the gateway now). Rows go in at 10 a millisecond; one last-use write
// every 7 ms; each write's synchronous time on the event loop is recorded.
//
//   node dist/bench/tools/lock-wait.js [--seconds 8]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../src/stores/sqlite/open.js';
import type { LastUseWriter } from '../../src/keys/key-store.js';
import { SqliteKeyStore } from '../../src/stores/sqlite/sqlite-key-store.js';
import { SqliteUsageStore } from '../../src/stores/sqlite/sqlite-usage-store.js';
import { ROWS_PER_HANDOVER, ThreadedUsageStore } from '../../src/stores/sqlite/threaded-usage-store.js';
import { UsageWriter } from '../../src/metering/usage-writer.js';
import { Samples } from '../percentiles.js';
import { round } from '../results.js';
import { usageRow } from './usage-writes.js';

export type LastUseOn = 'main' | 'thread';

export interface LockWait {
  on: LastUseOn;
  writes: number;
  /** Milliseconds the event loop spent in each last-use write call. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  overOneMs: number;
}

const ROWS_PER_MS = 10;
const TOUCH_EVERY_MS = 7;

export async function measureLockWait(on: LastUseOn, seconds: number): Promise<LockWait> {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-lock-wait-'));
  const url = `file:${join(dir, 'gateway.db')}`;
  const db = openDatabase(url);
  const keys = new SqliteKeyStore(db);
  const thread = new ThreadedUsageStore(url, new SqliteUsageStore(db));
  const writer = new UsageWriter(thread, { rowsPerWrite: ROWS_PER_HANDOVER });
  const lastUse: LastUseWriter = on === 'main' ? keys : thread;
  const spent = new Samples();
  try {
    const { record } = await keys.createKey({ customerName: 'bench' });
    await thread.insertBatch([usageRow(0)]); // the thread is up
    const until = performance.now() + seconds * 1000;
    let rows = 1;
    const pendingTouches: Array<Promise<void>> = [];
    // Both loops end before the stores close: a touch scheduled after the last rows would hit a closed store.
    const recording = new Promise<void>((resolve) => {
      const record10 = () => {
        for (let i = 0; i < ROWS_PER_MS; i++) writer.record(usageRow(rows++));
        if (performance.now() < until) setTimeout(record10, 1);
        else resolve();
      };
      record10();
    });
    const touching = new Promise<void>((resolve) => {
      const touch = () => {
        const start = performance.now();
        pendingTouches.push(lastUse.touchLastUsed([{ id: record.id, at: Date.now() }]));
        spent.add(performance.now() - start);
        if (performance.now() < until) setTimeout(touch, TOUCH_EVERY_MS);
        else resolve();
      };
      touch();
    });
    await Promise.all([recording, touching]);
    await Promise.all(pendingTouches);
    const s = spent.summary();
    const over = Array.from(spent.values()).filter((ms) => ms > 1).length;
    return { on, writes: s.count, p50Ms: round(s.p50, 3), p99Ms: round(s.p99, 3), maxMs: round(s.max, 3), overOneMs: over };
  } finally {
    await writer.close();
    await thread.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('lock-wait.js')) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' } } });
  const seconds = Number(values.seconds ?? 8);
  console.log('| last-use write on | writes | event loop held p50 / p99 / max ms | writes over 1 ms |\n|---|---:|---|---:|');
  for (const on of ['main', 'thread'] as const) {
    const w = await measureLockWait(on, seconds);
    console.log(`| ${w.on} | ${w.writes} | ${w.p50Ms} / ${w.p99Ms} / ${w.maxMs} | ${w.overOneMs} |`);
  }
}
