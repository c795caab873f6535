-- Reports read a daily rollup instead of the per-request rows: one row per day, customer, key and
-- model, kept up to date in the same transaction as the rows it sums. The per-request rows stay as
-- the audit trail without secondary indexes: four index updates were most of a row's cost on the
-- request path (bench/README.md). Requests without a customer or key are grouped under ''.
CREATE TABLE usage_daily (
  day                TEXT NOT NULL,
  customer_id        TEXT NOT NULL,
  key_id             TEXT NOT NULL,
  model              TEXT NOT NULL,
  requests           INTEGER NOT NULL,
  errors             INTEGER NOT NULL,
  input_tokens       INTEGER NOT NULL,
  output_tokens      INTEGER NOT NULL,
  cache_read_tokens  INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  PRIMARY KEY (day, customer_id, key_id, model)
) WITHOUT ROWID;

CREATE INDEX usage_daily_customer ON usage_daily (customer_id, day);
CREATE INDEX usage_daily_key ON usage_daily (key_id, day);
CREATE INDEX usage_daily_model ON usage_daily (model, day);

INSERT INTO usage_daily
SELECT day, coalesce(customer_id, ''), coalesce(key_id, ''), model, count(*), sum(status >= 400),
       sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens)
FROM usage_records
GROUP BY day, coalesce(customer_id, ''), coalesce(key_id, ''), model;

DROP INDEX usage_day;
DROP INDEX usage_customer_day;
DROP INDEX usage_key_day;
DROP INDEX usage_model_day;
