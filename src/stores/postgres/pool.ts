// The PostgreSQL connection pool every store shares, with a deadline on every call: the server cancels a
// statement past statement_timeout, and the client gives up on its own shortly after (query_timeout), so a
// network that drops packets cannot hang a caller either. Transactions run through inTransaction only.
// Every call's outcome is watched (pool-watch.ts): an unreachable database surfaces as StoreUnavailableError.
import pg from 'pg';
import type { PoolStats } from '../stores.js';
import { PoolWatch } from './pool-watch.js';

export { sqlState } from './pool-watch.js';

export interface PgPoolOptions {
  /** Connections at most. Default 10. */
  max?: number;
  /** How long a statement may run on the server. Default 5000 ms. */
  statementTimeoutMs?: number;
  /** How long opening a connection (or waiting for a free one) may take. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell the gateway's sessions apart. */
  applicationName?: string;
  /** An idle pooled connection failed (server restart, network); the pool replaces it on next use. */
  onIdleError?: (err: Error) => void;
  /** The database stopped answering (false) or answers again (true), as the pool's calls find it. */
  onUpChange?: (up: boolean) => void;
}

/** The client gives up this long after the server should have cancelled the statement itself. */
const CLIENT_MARGIN_MS = 1000;

/**
 * The pool the stores share: pg's, with the outcome of every call it makes watched (pool-watch.ts), so an
 * unreachable database surfaces as StoreUnavailableError and /metrics can tell up from down.
 */
export class WatchedPool extends pg.Pool {
  readonly watch: PoolWatch;

  constructor(config: pg.PoolConfig, onUpChange?: (up: boolean) => void) {
    super(config);
    this.watch = new PoolWatch(onUpChange);
  }

  // The stores call query in its promise form only; a callback caller gets pg's own behaviour.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  override query<R extends pg.QueryResultRow = any, I = any[]>(text: string | pg.QueryConfig<I>, values?: I): Promise<pg.QueryResult<R>>;
  override query(...args: any[]): any;
  override query(...args: any[]): any {
    /* eslint-enable @typescript-eslint/no-explicit-any */
    const result: unknown = (super.query as (...a: unknown[]) => unknown)(...args);
    if (!(result instanceof Promise)) return result;
    return result.then(
      (r: unknown) => {
        this.watch.answered();
        return r;
      },
      (err: unknown) => {
        throw this.watch.failed(err);
      },
    );
  }

  /** What the pool reports (connections open, idle, callers waiting) and how its calls fared. */
  stats(): PoolStats {
    return this.watch.stats(this);
  }
}

export function createPgPool(connectionString: string, opts: PgPoolOptions = {}): WatchedPool {
  const statementTimeoutMs = opts.statementTimeoutMs ?? 5000;
  const pool = new WatchedPool(
    {
      connectionString,
      max: opts.max ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      statement_timeout: statementTimeoutMs,
      lock_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + CLIENT_MARGIN_MS,
      // A transaction left open by a bug must not hold locks, or the key change horizon, for long.
      idle_in_transaction_session_timeout: statementTimeoutMs * 2,
      application_name: opts.applicationName ?? 'model-gateway',
    },
    opts.onUpChange,
  );
  // Without a listener an idle connection's error would be an uncaught 'error' event and end the process.
  pool.on('error', (err) => opts.onIdleError?.(err));
  return pool;
}

export type Queryable = pg.Pool | pg.PoolClient | pg.Client;

/**
 * One transaction on one pooled connection: COMMIT when `work` resolves, ROLLBACK when it throws. A
 * connection whose ROLLBACK failed is destroyed rather than handed to the next caller mid-transaction.
 */
export async function inTransaction<T>(
  pool: WatchedPool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const { watch } = pool;
  const client = await pool.connect().catch((err: unknown) => {
    throw watch.failed(err);
  });
  let broken: Error | undefined;
  // The pool listens for errors on idle connections only: a checked-out one whose socket dies (the server
  // ending a session it found idle in transaction, during a partition) would otherwise throw an uncaught
  // 'error' event. The query under way fails with it anyway; the connection is not given back.
  const onLost = (err: Error) => {
    broken = err;
  };
  client.on('error', onLost);
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    watch.answered();
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken = rollbackErr;
    });
    throw watch.failed(err);
  } finally {
    client.removeListener('error', onLost);
    client.release(broken);
  }
}

export const UNIQUE_VIOLATION = '23505';
