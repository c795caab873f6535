-- One row per request that reached the model stage; queried by customer, key, model and day.
CREATE TABLE usage_records (
  id                 INTEGER PRIMARY KEY,
  at                 INTEGER NOT NULL,        -- epoch milliseconds
  day                TEXT NOT NULL,           -- UTC date YYYY-MM-DD of `at`, stored for grouping and indexes
  request_id         TEXT NOT NULL,
  customer_id        TEXT,
  key_id             TEXT,
  model              TEXT NOT NULL,
  surface            TEXT NOT NULL,
  input_tokens       INTEGER NOT NULL,
  output_tokens      INTEGER NOT NULL,
  cache_read_tokens  INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  status             INTEGER NOT NULL,
  duration_ms        INTEGER NOT NULL,
  outcome            TEXT NOT NULL
);

CREATE INDEX usage_day ON usage_records (day);
CREATE INDEX usage_customer_day ON usage_records (customer_id, day);
CREATE INDEX usage_key_day ON usage_records (key_id, day);
CREATE INDEX usage_model_day ON usage_records (model, day);
