// What writing usage rows costs the event loop: rows are recorded at a steady rate (10 a millisecond by
// default, like a gateway at 10,000 requests a second) into a UsageWriter whose store is the database
// file on the event loop's own connection (`inline`), the usage write thread (`thread`, the gateway's
// default), or nothing (`none`, the floor), and the loop's delay is sampled every millisecond.
//
//   node dist/bench/tools/usage-writes.js [--seconds 15] [--rows-per-ms 10] [--rounds 2]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../src/stores/sqlite/open.js';
import { SqliteUsageStore } from '../../src/stores/sqlite/sqlite-usage-store.js';
import { ROWS_PER_HANDOVER, ThreadedUsageStore } from '../../src/stores/sqlite/threaded-usage-store.js';
import { emptyTotals, type UsageRecord, type UsageStore } from '../../src/metering/usage-store.js';
import { UsageWriter } from '../../src/metering/usage-writer.js';

export type WriteMode = 'none' | 'inline' | 'thread';

export interface WriteDelay {
  mode: WriteMode;
  rows: number;
  /** Event-loop delay in ms, as monitorEventLoopDelay reads it at a 1 ms resolution (an idle loop reads ~1). */
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

const NO_STORE: UsageStore = {
  insertBatch: async () => {},
  query: async () => [],
  totals: async () => emptyTotals(),
  spendOverview: async () => ({ totals: emptyTotals(), topCustomers: [], topModels: [], budgetsNearEnd: [], recent: { requests: 0, errors: 0 } }),
};

export async function measureWrites(mode: WriteMode, seconds: number, rowsPerMs: number): Promise<WriteDelay> {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-usage-writes-'));
  const url = `file:${join(dir, 'gateway.db')}`;
  const db = openDatabase(url);
  const reads = new SqliteUsageStore(db);
  const thread = mode === 'thread' ? new ThreadedUsageStore(url, reads) : null;
  // The gateway's own settings for each store (src/apps/serve/build-runtime.ts).
  const writer = new UsageWriter(thread ?? (mode === 'none' ? NO_STORE : reads), { rowsPerWrite: thread === null ? undefined : ROWS_PER_HANDOVER });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    let rows = 0;
    const until = performance.now() + seconds * 1000;
    await new Promise<void>((resolve) => {
      const tick = () => {
        for (let i = 0; i < rowsPerMs; i++) writer.record(usageRow(rows++));
        if (performance.now() < until) setTimeout(tick, 1);
        else resolve();
      };
      tick();
    });
    delay.disable();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    return { mode, rows, p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), p999: ms(delay.percentile(99.9)), max: ms(delay.max) };
  } finally {
    await writer.close();
    await thread?.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A chat request's usage row, as the gateway records it. */
export function usageRow(n: number): UsageRecord {
  return {
    at: Date.now(),
    requestId: `req_01HXYZABCDEFGHJKMN${n}`,
    customerId: 'cus_abcdefghijklmnop',
    keyId: 'key_abcdefghijklmnop',
    model: 'claude-sonnet-4-6',
    provider: 'anthropic',
    surface: 'chat',
    inputTokens: 82,
    outputTokens: 17,
    // 82 input and 17 output tokens at Sonnet 4.6's list prices.
    costNanoUsd: 501_000,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    status: 200,
    durationMs: 3.2,
    outcome: 'ok',
  };
}

if (process.argv[1]?.endsWith('usage-writes.js')) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, 'rows-per-ms': { type: 'string' }, rounds: { type: 'string' } } });
  const seconds = Number(values.seconds ?? 15);
  const rowsPerMs = Number(values['rows-per-ms'] ?? 10);
  const rounds = Number(values.rounds ?? 2);
  console.log('| round | rows written from | rows | delay p50 / p99 / p99.9 / max ms |\n|---|---|---:|---|');
  for (let r = 1; r <= rounds; r++) {
    for (const mode of ['none', 'inline', 'thread'] as const) {
      const d = await measureWrites(mode, seconds, rowsPerMs);
      console.log(`| ${r} | ${mode} | ${d.rows} | ${d.p50} / ${d.p99} / ${d.p999} / ${d.max} |`);
    }
  }
}
