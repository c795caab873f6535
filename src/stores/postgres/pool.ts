// The PostgreSQL connection pool every store shares, with a deadline on every call: the server cancels a
// statement past statement_timeout, and the client gives up on its own shortly after (query_timeout), so a
// network that drops packets cannot hang a caller either. Transactions run through inTransaction only.
import pg from 'pg';

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
}

/** The client gives up this long after the server should have cancelled the statement itself. */
const CLIENT_MARGIN_MS = 1000;

export function createPgPool(connectionString: string, opts: PgPoolOptions = {}): pg.Pool {
  const statementTimeoutMs = opts.statementTimeoutMs ?? 5000;
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
    statement_timeout: statementTimeoutMs,
    lock_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + CLIENT_MARGIN_MS,
    // A transaction left open by a bug must not hold locks, or the key change horizon, for long.
    idle_in_transaction_session_timeout: statementTimeoutMs * 2,
    application_name: opts.applicationName ?? 'model-gateway',
  });
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
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken = rollbackErr;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}

/** PostgreSQL's SQLSTATE of a failed query, when there is one. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const UNIQUE_VIOLATION = '23505';
