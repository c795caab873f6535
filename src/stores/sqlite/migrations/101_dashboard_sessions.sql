-- Dashboard sessions. The cookie carries a random id; only its SHA-256 is stored, so a copy of the
-- database cannot be replayed as sessions. Each session has its own token for state-changing calls.
CREATE TABLE dashboard_sessions (
  id_hash      BLOB PRIMARY KEY,
  role         TEXT NOT NULL CHECK (role IN ('operator', 'customer')),
  user_id      TEXT REFERENCES dashboard_users(id) ON DELETE CASCADE,
  credential_tag TEXT,                      -- operators: a hash of the admin token signed in with (a new token ends old sessions)
  csrf_token   TEXT NOT NULL,
  created_at   INTEGER NOT NULL,            -- epoch milliseconds
  last_seen_at INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,            -- absolute end; idle sessions end earlier (see session-store.ts)
  CHECK ((role = 'customer') = (user_id IS NOT NULL))
);

CREATE INDEX dashboard_sessions_expires ON dashboard_sessions (expires_at);
