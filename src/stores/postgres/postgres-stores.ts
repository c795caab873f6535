// The stores on a PostgreSQL database that every instance of a fleet shares. Opening applies the pending
// migrations (under an advisory lock, migrate.ts) and then works through one pool with a deadline on
// every call (pool.ts); key changes are pushed by LISTEN/NOTIFY on a connection of their own.
import { withDeadline } from '../../lib/deadline.js';
import { DatabaseError } from '../errors.js';
import type { PgPoolOptions } from './pool.js';
import { createPgPool } from './pool.js';
import { KeyChangeListener } from './key-change-listener.js';
import { migratePostgres } from './migrate.js';
import { PostgresAuditStore } from './postgres-audit-store.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import { PostgresSessionRows } from './postgres-session-rows.js';
import { PostgresUsageStore } from './postgres-usage-store.js';
import { PostgresUserStore } from './postgres-user-store.js';
import type { Stores } from '../stores.js';
import { errorMessage } from '../../lib/error-message.js';

export interface PostgresStoreOptions extends PgPoolOptions {
  /** A lost LISTEN connection and its reconnects. */
  onListenerError?: (err: Error) => void;
}

/**
 * How long a readiness probe may wait for the database: well under a balancer's check timeout (1 s in
 * HAProxy's and Kubernetes' usual settings). With the database partitioned every instance's /readyz waits
 * this long, and a check that timed out would take the whole fleet out at once (test/fleet/postgres-partition.drill.ts).
 */
const READY_DEADLINE_MS = 300;

/**
 * Usage rows per transaction. The write is a round trip, not work on the event loop (one JSON.stringify,
 * ~0.3 µs a row), so a batch can be large; each transaction costs four round trips and the server a
 * commit (docs/scaling.md). 500 is the writer's flush threshold: one transaction per flush.
 */
const USAGE_ROWS_PER_WRITE = 500;

export async function openPostgresStores(connectionString: string, opts: PostgresStoreOptions = {}): Promise<Stores> {
  try {
    await migratePostgres(connectionString);
  } catch (err) {
    // The reason only: the connection string may carry a password.
    throw new DatabaseError(`cannot open the PostgreSQL database: ${errorMessage(err)}`);
  }
  const pool = createPgPool(connectionString, opts);
  const keys = new PostgresKeyStore(pool);
  const usage = new PostgresUsageStore(pool);
  const listeners: KeyChangeListener[] = [];
  let closing: Promise<void> | null = null;
  return {
    kind: 'postgres',
    shared: true,
    keys,
    usage,
    writes: { usage, rowsPerWrite: USAGE_ROWS_PER_WRITE, lastUse: keys },
    users: new PostgresUserStore(pool),
    sessions: new PostgresSessionRows(pool),
    audit: new PostgresAuditStore(pool),
    poolStats: () => pool.stats(),
    async ready() {
      try {
        await withDeadline(pool.query('SELECT 1'), READY_DEADLINE_MS, 'readiness probe');
        return { database: 'up' };
      } catch {
        return { database: 'down' };
      }
    },
    async watchKeyChanges(onChange) {
      const listener = new KeyChangeListener(connectionString, {
        onChange: () => onChange(),
        onError: opts.onListenerError,
        connectTimeoutMs: opts.connectTimeoutMs,
      });
      listeners.push(listener);
      await listener.start();
    },
    close() {
      closing ??= (async () => {
        await Promise.all(listeners.map((l) => l.close()));
        await pool.end();
      })();
      return closing;
    },
  };
}
