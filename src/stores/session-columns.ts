// The dashboard_sessions table's columns, as both SQL stores name them, and their mapping to a SessionRow.
import type { Role, SessionRow } from './session-rows.js';

export interface SessionColumns {
  id_hash: Buffer;
  role: Role;
  user_id: string | null;
  credential_tag: string | null;
  csrf_token: string;
  /** Epoch milliseconds; PostgreSQL's bigint arrives as text. */
  created_at: number | string;
  last_seen_at: number | string;
  expires_at: number | string;
}

export function sessionRowOf(row: SessionColumns): SessionRow {
  return {
    idHash: row.id_hash,
    role: row.role,
    userId: row.user_id,
    credentialTag: row.credential_tag,
    csrfToken: row.csrf_token,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
  };
}
