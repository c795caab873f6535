// Dashboard sessions in the database: the cookie holds 256 random bits, the table only their SHA-256.
// A session ends at sign-out, after an idle period, or at an absolute lifetime, whichever comes first.
import { createHash, randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/open.js';

export type Role = 'operator' | 'customer';

export interface Session {
  role: Role;
  /** The customer user, for role 'customer'. */
  userId: string | null;
  /** For operators: credentialTag(admin token) at sign-in, so rotating the token ends older sessions. */
  credentialTag: string | null;
  /** Sent back in the x-csrf-token header on every state-changing call. */
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionTimes {
  /** Absolute lifetime. Default 12 h. */
  lifetimeMs: number;
  /** A session not used for this long ends. Default 2 h. */
  idleMs: number;
}

export const DEFAULT_SESSION_TIMES: SessionTimes = Object.freeze({ lifetimeMs: 12 * 3600_000, idleMs: 2 * 3600_000 });

interface SessionRow {
  role: Role;
  user_id: string | null;
  credential_tag: string | null;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/** last_seen_at is written at most this often, so reads do not turn every page view into a write. */
const TOUCH_EVERY_MS = 60_000;

function hashId(id: string): Buffer {
  return createHash('sha256').update(id).digest();
}

/** A short, one-way tag of a credential: enough to notice it changed, useless to recover it. */
export function credentialTag(secret: string): string {
  return createHash('sha256').update(`session-credential:${secret}`).digest('base64url').slice(0, 22);
}

export class SessionStore {
  private readonly sql: {
    insert: Statement<[Buffer, Role, string | null, string | null, string, number, number, number]>;
    get: Statement<[Buffer], SessionRow>;
    touch: Statement<[number, Buffer]>;
    remove: Statement<[Buffer]>;
    sweep: Statement<[number, number]>;
    removeOthersOfUser: Statement<[string, Buffer]>;
  };

  constructor(
    db: Db,
    private readonly times: SessionTimes = DEFAULT_SESSION_TIMES,
    private readonly now: () => number = Date.now,
  ) {
    this.sql = {
      insert: db.prepare(
        `INSERT INTO dashboard_sessions (id_hash, role, user_id, credential_tag, csrf_token, created_at, last_seen_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      get: db.prepare('SELECT * FROM dashboard_sessions WHERE id_hash = ?'),
      touch: db.prepare('UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?'),
      remove: db.prepare('DELETE FROM dashboard_sessions WHERE id_hash = ?'),
      sweep: db.prepare('DELETE FROM dashboard_sessions WHERE expires_at <= ? OR last_seen_at <= ?'),
      removeOthersOfUser: db.prepare('DELETE FROM dashboard_sessions WHERE user_id = ? AND id_hash <> ?'),
    };
  }

  /** Returns the cookie value (the only place the session id exists) and the session. */
  async create(role: Role, userId: string | null, tag: string | null = null): Promise<{ id: string; session: Session }> {
    const now = this.now();
    this.sql.sweep.run(now, now - this.times.idleMs); // ended sessions are cleared whenever a new one starts
    const id = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const session: Session = { role, userId, credentialTag: tag, csrfToken, createdAt: now, expiresAt: now + this.times.lifetimeMs };
    this.sql.insert.run(hashId(id), role, userId, tag, csrfToken, now, now, session.expiresAt);
    return { id, session };
  }

  /** The live session for a cookie value, or null (unknown, ended, or idle too long). */
  async get(id: string): Promise<Session | null> {
    const key = hashId(id);
    const row = this.sql.get.get(key);
    if (!row) return null;
    const now = this.now();
    if (row.expires_at <= now || row.last_seen_at <= now - this.times.idleMs) {
      this.sql.remove.run(key);
      return null;
    }
    if (now - row.last_seen_at >= TOUCH_EVERY_MS) this.sql.touch.run(now, key);
    return {
      role: row.role,
      userId: row.user_id,
      credentialTag: row.credential_tag,
      csrfToken: row.csrf_token,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  async remove(id: string): Promise<void> {
    this.sql.remove.run(hashId(id));
  }

  /** Ends every session of the user except the one with cookie value `keepId`. Returns how many ended. */
  async removeOthersOfUser(userId: string, keepId: string): Promise<number> {
    return this.sql.removeOthersOfUser.run(userId, hashId(keepId)).changes;
  }
}
