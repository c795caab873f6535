// How the pool's calls fare. A failure that means the database did not answer (refused connection, lost
// connection, a deadline passed) becomes a StoreUnavailableError, so the dashboard and the admin API answer
// 503 instead of 500; the counts and the up/down state feed /metrics (docs/postgres.md, "When PostgreSQL
// is unreachable").
import { StoreUnavailableError } from '../errors.js';
import type { PoolStats } from '../stores.js';

/** Socket errors: the server cannot be reached at all. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * The server answered but cannot serve now: shutting down (57P01-57P03), out of connections (53300), a
 * statement cancelled by statement_timeout (57014). Class 08 (connection exceptions) is matched by prefix.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
/** node-postgres's own deadlines and lost connections carry no code, only these messages. */
const UNAVAILABLE_MESSAGE = /timeout|connection terminated|not queryable|connection error|cannot use a pool after/i;

/** PostgreSQL's SQLSTATE of a failed query (or a socket's error code), when there is one. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isUnreachable(err: unknown): boolean {
  const code = sqlState(err);
  if (code !== undefined) return NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08');
  return err instanceof Error && UNAVAILABLE_MESSAGE.test(err.message);
}

export class PoolWatch {
  private unavailableCalls = 0;
  private failedCalls = 0;
  private up = true;
  /** A failure crosses two boundaries when a pool call fails inside a transaction: count it once. */
  private readonly seen = new WeakSet<object>();

  constructor(private readonly onUpChange?: (up: boolean) => void) {}

  answered(): void {
    this.setUp(true);
  }

  /** Counts a failed call and returns what to throw in its place. */
  failed(err: unknown): unknown {
    if (typeof err !== 'object' || err === null || this.seen.has(err)) return err;
    this.seen.add(err);
    if (!isUnreachable(err)) {
      // The database answered, refusing the statement (a unique violation, say): it is up.
      this.failedCalls++;
      this.setUp(true);
      return err;
    }
    this.unavailableCalls++;
    this.setUp(false);
    const wrapped = new StoreUnavailableError(`the database is not answering: ${(err as Error).message}`, { cause: err });
    this.seen.add(wrapped);
    return wrapped;
  }

  stats(pool: { totalCount: number; idleCount: number; waitingCount: number }): PoolStats {
    return {
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      unavailableCalls: this.unavailableCalls,
      failedCalls: this.failedCalls,
      up: this.up,
    };
  }

  private setUp(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    try {
      this.onUpChange?.(up);
    } catch {
      // a failing listener must not turn an answered call into a failed one
    }
  }
}
