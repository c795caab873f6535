// Dashboard session rows in PostgreSQL (the rules about sessions are in src/admin/auth/session-store.ts).
import type { WatchedPool } from './pool.js';
import type { SessionRow, SessionRows } from '../session-rows.js';
import { sessionRowOf, type SessionColumns } from '../session-columns.js';

export class PostgresSessionRows implements SessionRows {
  constructor(private readonly pool: WatchedPool) {}

  async insert(r: SessionRow): Promise<void> {
    await this.pool.query(
      `INSERT INTO dashboard_sessions (id_hash, role, user_id, credential_tag, csrf_token, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [r.idHash, r.role, r.userId, r.credentialTag, r.csrfToken, r.createdAt, r.lastSeenAt, r.expiresAt],
    );
  }

  async get(idHash: Buffer): Promise<SessionRow | null> {
    const { rows } = await this.pool.query<SessionColumns>('SELECT * FROM dashboard_sessions WHERE id_hash = $1', [idHash]);
    return rows.length === 0 ? null : sessionRowOf(rows[0]);
  }

  async touch(idHash: Buffer, lastSeenAt: number): Promise<void> {
    await this.pool.query('UPDATE dashboard_sessions SET last_seen_at = $1 WHERE id_hash = $2', [lastSeenAt, idHash]);
  }

  async remove(idHash: Buffer): Promise<void> {
    await this.pool.query('DELETE FROM dashboard_sessions WHERE id_hash = $1', [idHash]);
  }

  async sweep(now: number, idleSince: number): Promise<void> {
    await this.pool.query('DELETE FROM dashboard_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleSince]);
  }

  async removeOthersOfUser(userId: string, keepHash: Buffer): Promise<number> {
    const result = await this.pool.query('DELETE FROM dashboard_sessions WHERE user_id = $1 AND id_hash <> $2', [userId, keepHash]);
    return result.rowCount ?? 0;
  }
}
