-- Dashboard sign-in accounts of customer users (operators sign in with the admin token instead).
-- Only an scrypt hash of each password is stored.
CREATE TABLE dashboard_users (
  id              TEXT PRIMARY KEY,
  customer_id     TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  email           TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password_hash   TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  last_sign_in_at TEXT
);

CREATE INDEX dashboard_users_customer ON dashboard_users (customer_id);
