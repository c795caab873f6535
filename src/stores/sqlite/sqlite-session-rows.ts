// Dashboard session rows in SQLite (the rules about sessions are in src/admin/auth/session-store.ts).
import type { Statement } from 'better-sqlite3';
import type { Role, SessionRow, SessionRows } from '../session-rows.js';
import { sessionRowOf, type SessionColumns } from '../session-columns.js';

import type { Db } from './open.js';

export class SqliteSessionRows implements SessionRows {
  private readonly sql: {
    insert: Statement<[Buffer, Role, string | null, string | null, string, number, number, number]>;
    get: Statement<[Buffer], SessionColumns>;
    touch: Statement<[number, Buffer]>;
    remove: Statement<[Buffer]>;
    sweep: Statement<[number, number]>;
    removeOthersOfUser: Statement<[string, Buffer]>;
  };

  constructor(db: Db) {
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

  async insert(r: SessionRow): Promise<void> {
    this.sql.insert.run(r.idHash, r.role, r.userId, r.credentialTag, r.csrfToken, r.createdAt, r.lastSeenAt, r.expiresAt);
  }

  async get(idHash: Buffer): Promise<SessionRow | null> {
    const row = this.sql.get.get(idHash);
    return row ? sessionRowOf(row) : null;
  }

  async touch(idHash: Buffer, lastSeenAt: number): Promise<void> {
    this.sql.touch.run(lastSeenAt, idHash);
  }

  async remove(idHash: Buffer): Promise<void> {
    this.sql.remove.run(idHash);
  }

  async sweep(now: number, idleSince: number): Promise<void> {
    this.sql.sweep.run(now, idleSince);
  }

  async removeOthersOfUser(userId: string, keepHash: Buffer): Promise<number> {
    return this.sql.removeOthersOfUser.run(userId, keepHash).changes;
  }
}
