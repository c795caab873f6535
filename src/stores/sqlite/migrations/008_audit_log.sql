-- The admin trail (src/stores/audit-store.ts): one row per change made through the command line, the
-- admin API or the dashboard. Rows are appended and, past the retention, deleted; never changed: the
-- trigger refuses any UPDATE. No foreign keys: a row outlives whatever it names.
CREATE TABLE audit_log (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, so ids keep the order of appending
  at           INTEGER NOT NULL,                   -- epoch milliseconds
  actor        TEXT NOT NULL,                      -- operator, a user's e-mail, cli@<host>
  address      TEXT,                               -- the client's address; NULL from the command line
  action       TEXT NOT NULL,
  customer_id  TEXT,                               -- whose users may read the row; NULL: operators only
  target_id    TEXT,
  before_state TEXT,                               -- JSON, never a secret
  after_state  TEXT
);

CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_customer_at ON audit_log (customer_id, at);

CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log rows cannot be changed');
END;
