// The stores seam: everything the gateway, the dashboard and the command line keep in a database, as
// interfaces. openStores (open-stores.ts) picks the implementation from DATABASE_URL: SQLite for one host,
// PostgreSQL for a fleet. Nothing outside src/stores/ sees a database handle.
import type { AuditStore } from './audit-store.js';
import type { SessionRows } from './session-rows.js';
import type { UserStore } from './user-store.js';
import type { KeyStore, LastUseWriter } from '../keys/key-store.js';
import type { UsageSink, UsageStore } from '../metering/usage-store.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface StoreHealth {
  database: 'up' | 'down';
}

/** A connection pool's figures and how its calls fared since the process started, for /metrics. */
export interface PoolStats {
  /** Connections open, of them idle, and callers waiting for one. */
  open: number;
  idle: number;
  waiting: number;
  /** Calls that failed because the database did not answer (StoreUnavailableError). */
  unavailableCalls: number;
  /** Calls the database answered with an error (a constraint, say). */
  failedCalls: number;
  /** Whether the last call reached the database. */
  up: boolean;
}

/** Where the request path's writes go: usage batches and the keys' last-use times. */
export interface StoreWrites {
  usage: UsageSink;
  /** Rows per usage write that suit this store; the writer's default when absent. */
  rowsPerWrite?: number;
  lastUse: LastUseWriter;
}

export interface Stores {
  readonly kind: StoreKind;
  /** True when other instances share this database (their changes arrive through the change feeds). */
  readonly shared: boolean;
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly writes: StoreWrites;
  readonly users: UserStore;
  readonly sessions: SessionRows;
  /** The admin trail: who changed what, append-only (audit-store.ts). */
  readonly audit: AuditStore;
  /** Asks the database for a trivial answer, within a short deadline. */
  ready(): Promise<StoreHealth>;
  /** The connection pool, for /metrics; absent for a store without one (SQLite). */
  poolStats?(): PoolStats;
  /**
   * Calls `onChange` as soon as any instance commits a key change, ahead of the key cache's poll (which
   * stays correct by itself). A store with nothing to push (SQLite) never calls it.
   */
  watchKeyChanges(onChange: () => void): Promise<void>;
  /** Finishes pending writes and closes every connection. */
  close(): Promise<void>;
}
