// The usage writer's thread: its own connection to the database file, where each batch of usage rows
// is inserted in transactions of a few dozen rows. SQLite's writes are synchronous (~3 µs a row, and
// now and then a WAL checkpoint of several milliseconds); here they hold up no request. The thread
// runs at a lower priority than the event loop, like the translation pool's.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/open.js';
import { lowerThreadPriority } from '../workers/thread-priority.js';
import { SqliteUsageStore } from './sqlite-usage-store.js';
import type { UsageRecord } from './usage-store.js';

export interface WriteRequest {
  id: number;
  rows: UsageRecord[];
}

export type WriteReply = { id: number; error?: undefined } | { id: number; error: string };

/** Rows per transaction: a short write lock, so the main thread's own writes (keys) rarely wait. */
export const ROWS_PER_TRANSACTION = 64;

export interface UsageThreadData {
  databaseUrl: string;
}

if (parentPort !== null) {
  const port = parentPort;
  lowerThreadPriority();
  const db = openDatabase((workerData as UsageThreadData).databaseUrl);
  const store = new SqliteUsageStore(db);
  port.on('message', (msg: WriteRequest | 'close') => {
    if (msg === 'close') {
      db.close();
      port.postMessage('closed');
      return;
    }
    port.postMessage(write(store, msg) satisfies WriteReply);
  });
}

function write(store: SqliteUsageStore, { id, rows }: WriteRequest): WriteReply {
  try {
    for (let i = 0; i < rows.length; i += ROWS_PER_TRANSACTION) store.insertRows(rows.slice(i, i + ROWS_PER_TRANSACTION));
    return { id };
  } catch (err) {
    return { id, error: err instanceof Error ? err.message : String(err) };
  }
}
