// The usage writer's thread: its own connection to the database file, where each batch of usage rows
// is inserted in transactions of a few dozen rows, and the keys' last-use times are written. SQLite's
// writes are synchronous (~3 µs a row, and now and then a WAL checkpoint of several milliseconds); here
// they hold up no request. Every write the request path causes comes here, so the event loop's own
// connection never waits for this one's write lock (which, at the thread's lower priority, a busy
// machine can keep held for tens of milliseconds). The thread runs at a lower priority than the event
// loop, like the translation pool's.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './open.js';
import type { LastUse } from '../../keys/key-store.js';
import { lastUsedRowsWriter } from './last-used-rows.js';
import { lowerThreadPriority } from '../../lib/thread-priority.js';
import { SqliteUsageStore } from './sqlite-usage-store.js';
import { decodeUsageBatch, type UsageBatch } from './usage-handover.js';
import { errorMessage } from '../../lib/error-message.js';

export type WriteRequest = { id: number; batch: UsageBatch } | { id: number; lastUsed: LastUse[] };

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
  const stores: ThreadStores = { usage: new SqliteUsageStore(db), writeLastUsed: lastUsedRowsWriter(db) };
  port.on('message', (msg: WriteRequest | 'close') => {
    if (msg === 'close') {
      db.close();
      port.postMessage('closed');
      return;
    }
    port.postMessage(write(stores, msg) satisfies WriteReply);
  });
}

interface ThreadStores {
  usage: SqliteUsageStore;
  writeLastUsed: (entries: LastUse[]) => void;
}

function write(stores: ThreadStores, request: WriteRequest): WriteReply {
  const { id } = request;
  try {
    if ('lastUsed' in request) stores.writeLastUsed(request.lastUsed);
    else {
      const rows = decodeUsageBatch(request.batch);
      for (let i = 0; i < rows.length; i += ROWS_PER_TRANSACTION) stores.usage.insertRows(rows.slice(i, i + ROWS_PER_TRANSACTION));
    }
    return { id };
  } catch (err) {
    return { id, error: errorMessage(err) };
  }
}
