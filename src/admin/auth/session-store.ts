// Dashboard sessions, kept in the database (SessionRows): the cookie holds 256 random bits, the table only their SHA-256.
// A session ends at sign-out, after an idle period, or at an absolute lifetime, whichever comes first.
import { createHash, randomBytes } from 'node:crypto';
import type { Role, SessionRows } from '../../stores/session-rows.js';

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
  constructor(
    private readonly rows: SessionRows,
    private readonly times: SessionTimes = DEFAULT_SESSION_TIMES,
    private readonly now: () => number = Date.now,
  ) {}

  /** Returns the cookie value (the only place the session id exists) and the session. */
  async create(role: Role, userId: string | null, tag: string | null = null): Promise<{ id: string; session: Session }> {
    const now = this.now();
    await this.rows.sweep(now, now - this.times.idleMs); // ended sessions are cleared whenever a new one starts
    const id = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const session: Session = { role, userId, credentialTag: tag, csrfToken, createdAt: now, expiresAt: now + this.times.lifetimeMs };
    await this.rows.insert({ idHash: hashId(id), ...session, lastSeenAt: now });
    return { id, session };
  }

  /** The live session for a cookie value, or null (unknown, ended, or idle too long). */
  async get(id: string): Promise<Session | null> {
    const key = hashId(id);
    const row = await this.rows.get(key);
    if (!row) return null;
    const now = this.now();
    if (row.expiresAt <= now || row.lastSeenAt <= now - this.times.idleMs) {
      await this.rows.remove(key);
      return null;
    }
    if (now - row.lastSeenAt >= TOUCH_EVERY_MS) await this.rows.touch(key, now);
    return {
      role: row.role,
      userId: row.userId,
      credentialTag: row.credentialTag,
      csrfToken: row.csrfToken,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    };
  }

  async remove(id: string): Promise<void> {
    await this.rows.remove(hashId(id));
  }

  /** Ends every session of the user except the one with cookie value `keepId`. Returns how many ended. */
  async removeOthersOfUser(userId: string, keepId: string): Promise<number> {
    return this.rows.removeOthersOfUser(userId, hashId(keepId));
  }
}
