-- The admin trail (src/stores/audit-store.ts): one row per change made through the command line, the
-- admin API or the dashboard, on any instance. Rows are appended and, past the retention, deleted; never
-- changed: the trigger refuses any UPDATE. No foreign keys: a row outlives whatever it names.
CREATE TABLE audit_log (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at           timestamptz NOT NULL,
  actor        text NOT NULL,        -- operator, a user's e-mail, cli@<host>
  address      text,                 -- the client's address; NULL from the command line
  action       text NOT NULL,
  customer_id  text,                 -- whose users may read the row; NULL: operators only
  target_id    text,
  before_state jsonb,                -- never a secret
  after_state  jsonb
);

CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_customer_at ON audit_log (customer_id, at);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log rows cannot be changed';
END
$$;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
