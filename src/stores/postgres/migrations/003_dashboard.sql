-- Dashboard sign-in accounts of customer users (operators sign in with the admin token instead); only an
-- scrypt hash of each password is stored. Emails arrive lower-cased; the index keeps them unique anyway.
CREATE TABLE dashboard_users (
  id              text PRIMARY KEY,
  customer_id     text NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  email           text NOT NULL,
  password_hash   text NOT NULL,
  created_at      timestamptz NOT NULL,
  last_sign_in_at timestamptz
);

CREATE UNIQUE INDEX dashboard_users_email ON dashboard_users (lower(email));
CREATE INDEX dashboard_users_customer ON dashboard_users (customer_id);

-- Dashboard sessions, read from here on every call, so a session ended on one instance (sign-out, a
-- removed user, a changed password) is ended on all of them at once. The cookie carries a random id;
-- only its SHA-256 is stored.
CREATE TABLE dashboard_sessions (
  id_hash        bytea PRIMARY KEY,
  role           text NOT NULL CHECK (role IN ('operator', 'customer')),
  user_id        text REFERENCES dashboard_users(id) ON DELETE CASCADE,
  credential_tag text,
  csrf_token     text NOT NULL,
  created_at     bigint NOT NULL,               -- epoch milliseconds
  last_seen_at   bigint NOT NULL,
  expires_at     bigint NOT NULL,
  CHECK ((role = 'customer') = (user_id IS NOT NULL))
);

CREATE INDEX dashboard_sessions_expires ON dashboard_sessions (expires_at);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);
