-- Customers and their gateway keys. Only a SHA-256 of each key's secret is stored.
CREATE TABLE customers (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL
);

CREATE TABLE api_keys (
  id             TEXT PRIMARY KEY,            -- the key's public id
  customer_id    TEXT NOT NULL REFERENCES customers(id),
  name           TEXT,
  prefix         TEXT NOT NULL,               -- shown in lists instead of the key
  secret_hash    BLOB NOT NULL,
  created_at     TEXT NOT NULL,
  last_used_at   TEXT,
  expires_at     TEXT,
  allowed_models TEXT,                        -- JSON array of model ids, NULL = every model
  rpm            INTEGER,
  tpm            INTEGER,
  status         TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  revoked_at     TEXT,
  version        INTEGER NOT NULL             -- raised past every other row's on each change; caches poll it
);

CREATE INDEX api_keys_customer ON api_keys (customer_id);
CREATE UNIQUE INDEX api_keys_version ON api_keys (version);
