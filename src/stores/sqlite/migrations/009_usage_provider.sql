-- Every usage row names the provider that served it (a route's provider id, docs/routes.md): the
-- per-request rows get a column, and the daily rollup groups by it too, so one model served by two
-- accounts shows as two rows. Rows written before this migration, and requests that reached no
-- provider, carry '' in the rollup and NULL per request. The numbers 007 and 008 are other features'.
-- SQLite cannot change a primary key: the rollup is rebuilt with the provider in it.
ALTER TABLE usage_records ADD COLUMN provider TEXT;

CREATE TABLE usage_daily_by_provider (
  day                TEXT NOT NULL,
  customer_id        TEXT NOT NULL,
  key_id             TEXT NOT NULL,
  model              TEXT NOT NULL,
  provider           TEXT NOT NULL DEFAULT '',
  requests           INTEGER NOT NULL,
  errors             INTEGER NOT NULL,
  input_tokens       INTEGER NOT NULL,
  output_tokens      INTEGER NOT NULL,
  cache_read_tokens  INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  cost_nano_usd      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, customer_id, key_id, model, provider)
) WITHOUT ROWID;

INSERT INTO usage_daily_by_provider
  (day, customer_id, key_id, model, provider, requests, errors, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_nano_usd)
SELECT day, customer_id, key_id, model, '', requests, errors, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_nano_usd
FROM usage_daily;

DROP TABLE usage_daily;
ALTER TABLE usage_daily_by_provider RENAME TO usage_daily;
CREATE INDEX usage_daily_customer ON usage_daily (customer_id, day);
CREATE INDEX usage_daily_key ON usage_daily (key_id, day);
CREATE INDEX usage_daily_model ON usage_daily (model, day);
