// The admin trail: one append-only row per change made through the command line, the admin API or the
// dashboard (keys, customers, their limits and budgets, users, passwords, sign-ins). What a row holds is
// decided by the recorder (src/admin/audit/); the stores only keep rows, list them and drop the ones older
// than the retention. There is no way to change a row: the tables refuse UPDATE too.

/** What was done. A new action is added here, so every store, page and command knows the full list. */
export const AUDIT_ACTIONS = [
  'key.create',
  'key.update',
  'key.revoke',
  'customer.create',
  'customer.limits',
  'customer.budget',
  'user.create',
  'user.delete',
  'user.password',
  'session.sign_in',
  'session.sign_in_failed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The state of what changed, before or after, as JSON; built from an allow-list of fields, never a secret. */
export type AuditState = Readonly<Record<string, unknown>>;

export interface NewAuditEntry {
  at: Date;
  /** Who: `operator` (the admin token), a customer user's e-mail, or `cli@<host>`. */
  actor: string;
  /** The client's address (behind a trusted proxy, the one it forwarded); null for the command line. */
  address: string | null;
  action: AuditAction;
  /** The customer the change belongs to: its users see the row. null: operators only. */
  customerId: string | null;
  /** The key, customer or user changed (a sign-in: the user); null when there is none. */
  targetId: string | null;
  before: AuditState | null;
  after: AuditState | null;
}

export interface AuditEntry extends Omit<NewAuditEntry, 'at'> {
  /** Increasing in the order rows were appended (a decimal string: PostgreSQL's bigint). */
  id: string;
  /** ISO 8601, UTC, to the millisecond. */
  at: string;
}

export interface AuditQuery {
  /** Rows at or after this moment (epoch milliseconds). */
  sinceMs?: number;
  customerId?: string;
  /** At most this many rows, the newest. */
  limit?: number;
}

export interface AuditStore {
  append(entry: NewAuditEntry): Promise<void>;
  /** Newest first. */
  list(query?: AuditQuery): Promise<AuditEntry[]>;
  /** Deletes the rows older than `cutoff` (the retention); returns how many went. */
  deleteOlderThan(cutoff: Date): Promise<number>;
}
