-- Customers and their gateway keys. Only a SHA-256 of each key's secret is stored.
CREATE TABLE customers (
  id          text PRIMARY KEY,
  name        text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL
);

-- Each change to a key row draws a new version from this sequence; a change that waited for another change
-- of the same row draws after that one committed, so one row's versions rise in commit order: caches keep
-- the highest they have seen. The feed's cursor is changed_xid, never this version.
CREATE SEQUENCE api_key_versions;

CREATE TABLE api_keys (
  id             text PRIMARY KEY,              -- the key's public id
  customer_id    text NOT NULL REFERENCES customers(id),
  name           text,
  prefix         text NOT NULL,                 -- shown in lists instead of the key
  secret_hash    bytea NOT NULL,
  created_at     timestamptz NOT NULL,
  last_used_at   timestamptz,
  expires_at     timestamptz,
  allowed_models text[],                        -- NULL = every model
  rpm            bigint,
  tpm            bigint,
  status         text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  revoked_at     timestamptz,
  version        bigint NOT NULL,               -- from api_key_versions, per-row order of changes
  -- The id of the transaction that made the last change. The change feed hands out a row only once every
  -- transaction with a lower id has ended (docs/postgres.md, "The key change feed"), which versions alone
  -- cannot promise when two changes commit out of order.
  changed_xid    bigint NOT NULL
);

CREATE INDEX api_keys_customer ON api_keys (customer_id);
CREATE INDEX api_keys_changed_xid ON api_keys (changed_xid);
