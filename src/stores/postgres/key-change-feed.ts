// How key changes are stamped and read back so that no instance ever skips one, whatever order the
// writing transactions commit in.
//
// The invariant: changesSince(cursor) returns every key row whose last change was made by a transaction
// with an id above `cursor` and below the reader's horizon, the oldest transaction still running when the
// reader's snapshot was taken; the next cursor is that horizon minus one. Every transaction below the
// horizon has ended, so its change (or a later change of the same row) is in the snapshot; every
// transaction that can still commit has an id at or above the horizon, so the cursor never passes it.
// A counter of committed versions (MAX(version) + 1, or a sequence read alone) breaks exactly here: a
// slow transaction that drew a lower number commits after a reader already moved past it, and that
// revocation is never seen.
//
// The cost: a change waits for every older write transaction on the server to end before it is handed
// out, so write transactions are kept short (statement and idle-in-transaction timeouts, pool.ts).

/** Stamped on every changed key row, in the writing transaction: its id (assigned now if not yet) and a per-row version. */
export const STAMP_CHANGE = `version = nextval('api_key_versions'), changed_xid = pg_current_xact_id()::text::bigint`;
/** The same two values for an INSERT's column list. */
export const CHANGE_STAMP_VALUES = `nextval('api_key_versions'), pg_current_xact_id()::text::bigint`;

/** Listeners are told after commit (NOTIFY is transactional); the poll is correct without them. */
export const KEY_CHANGES_CHANNEL = 'mgw_key_changes';
export const NOTIFY_KEY_CHANGE = `SELECT pg_notify('${KEY_CHANGES_CHANNEL}', '')`;

/** The reader's horizon, from the same snapshot as the rows read in its transaction. */
export const READ_HORIZON = `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`;

/** The snapshot must be one for both statements: a repeatable-read, read-only transaction. */
export const FEED_TRANSACTION = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** The cursor after a read: just below the horizon, and never behind where the reader already was. */
export function nextCursor(cursor: number, horizonText: string): number {
  return Math.max(cursor, Number(horizonText) - 1);
}
