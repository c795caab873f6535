// Dashboard sessions as the stores keep them; what a session may do and when it ends is the dashboard's
// SessionStore (src/admin/auth/session-store.ts).

export type Role = 'operator' | 'customer';

/** A session as stored: only the SHA-256 of its cookie value identifies it. */
export interface SessionRow {
  idHash: Buffer;
  role: Role;
  userId: string | null;
  credentialTag: string | null;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** Where sessions are kept (SQLite or PostgreSQL, src/stores/); the rules about them are SessionStore's. */
export interface SessionRows {
  insert(row: SessionRow): Promise<void>;
  get(idHash: Buffer): Promise<SessionRow | null>;
  touch(idHash: Buffer, lastSeenAt: number): Promise<void>;
  remove(idHash: Buffer): Promise<void>;
  /** Deletes sessions that expired by `now` or were last seen at or before `idleSince`. */
  sweep(now: number, idleSince: number): Promise<void>;
  /** Deletes the user's sessions except `keepHash`; returns how many. */
  removeOthersOfUser(userId: string, keepHash: Buffer): Promise<number>;
}
