// The stores on one SQLite file (or in memory, for tests): one host's gateway.
import { SqliteAuditStore } from './sqlite-audit-store.js';
import { SqliteKeyStore } from './sqlite-key-store.js';
import { SqliteSessionRows } from './sqlite-session-rows.js';
import { SqliteUsageStore } from './sqlite-usage-store.js';
import { SqliteUserStore } from './sqlite-user-store.js';
import { ROWS_PER_HANDOVER, ThreadedUsageStore } from './threaded-usage-store.js';
import { openDatabase } from './open.js';
import type { Stores, StoreWrites } from '../stores.js';

export function openSqliteStores(databaseUrl: string): Stores {
  const db = openDatabase(databaseUrl);
  const keys = new SqliteKeyStore(db);
  const usage = new SqliteUsageStore(db);
  // A file takes usage rows and last-use times on a thread of its own, so the event loop never waits for
  // SQLite's write lock; a database in memory cannot be shared with one. The thread is started by the
  // first to ask for the writes (the gateway, at start): a command of the CLI never pays for it.
  let threaded: ThreadedUsageStore | null = null;
  let writes: StoreWrites | null = null;
  let closing: Promise<void> | null = null;
  return {
    kind: 'sqlite',
    shared: false,
    keys,
    usage,
    get writes(): StoreWrites {
      if (writes === null) {
        threaded = db.memory ? null : new ThreadedUsageStore(databaseUrl, usage);
        writes = threaded === null ? { usage, lastUse: keys } : { usage: threaded, rowsPerWrite: ROWS_PER_HANDOVER, lastUse: threaded };
      }
      return writes;
    },
    users: new SqliteUserStore(db),
    sessions: new SqliteSessionRows(db),
    audit: new SqliteAuditStore(db),
    async ready() {
      try {
        db.prepare('SELECT 1').get();
        return { database: 'up' };
      } catch {
        return { database: 'down' };
      }
    },
    async watchKeyChanges() {
      // Every writer is on this host and the key cache's poll reads the file once a second.
    },
    close() {
      closing ??= (async () => {
        await threaded?.close();
        db.close();
      })();
      return closing;
    },
  };
}
