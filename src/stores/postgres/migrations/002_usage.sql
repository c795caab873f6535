-- One row per request that reached the model stage, partitioned by month of `day` so old months can be
-- detached and archived without touching the rest (docs/postgres.md). PostgreSQL wants the partition key
-- in every unique constraint of a partitioned table, so the request id is unique per day: a retried batch
-- carries the very same records (same `at`, so same day), and request ids are 128 random bits.
CREATE TABLE usage_records (
  request_id         text NOT NULL,
  day                date NOT NULL,             -- UTC date of `at`
  at                 timestamptz NOT NULL,
  customer_id        text,
  key_id             text,
  model              text NOT NULL,
  surface            text NOT NULL,
  input_tokens       bigint NOT NULL,
  output_tokens      bigint NOT NULL,
  cache_read_tokens  bigint NOT NULL,
  cache_write_tokens bigint NOT NULL,
  status             integer NOT NULL,
  duration_ms        integer NOT NULL,
  outcome            text NOT NULL,
  PRIMARY KEY (request_id, day)
) PARTITION BY RANGE (day);

-- Creates the month's partition when it is missing. Called by every writer before a batch that reaches a
-- month it has not seen; the advisory lock makes ten instances crossing midnight create it one at a time.
-- Taking it does not refresh this session's view of the catalog, so the second creator may still not
-- see the first one's table and is answered duplicate_table: that, too, means the partition exists.
CREATE FUNCTION usage_month_partition(any_day date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', any_day)::date;
  part_name text := 'usage_records_' || to_char(first_day, 'YYYYMM');
BEGIN
  IF to_regclass(part_name) IS NOT NULL THEN RETURN part_name; END IF;
  PERFORM pg_advisory_xact_lock(hashtext('model-gateway usage partitions'));
  IF to_regclass(part_name) IS NOT NULL THEN RETURN part_name; END IF;
  BEGIN
    EXECUTE format('CREATE TABLE %I PARTITION OF usage_records FOR VALUES FROM (%L) TO (%L)',
                   part_name, first_day, (first_day + interval '1 month')::date);
  EXCEPTION WHEN duplicate_table THEN
    NULL;
  END;
  RETURN part_name;
END $$;

-- Reports read a daily rollup, one row per day, customer, key and model, updated in the same transaction
-- as the rows it sums. Requests without a customer or key are grouped under ''.
CREATE TABLE usage_daily (
  day                date NOT NULL,
  customer_id        text NOT NULL,
  key_id             text NOT NULL,
  model              text NOT NULL,
  requests           bigint NOT NULL,
  errors             bigint NOT NULL,
  input_tokens       bigint NOT NULL,
  output_tokens      bigint NOT NULL,
  cache_read_tokens  bigint NOT NULL,
  cache_write_tokens bigint NOT NULL,
  PRIMARY KEY (day, customer_id, key_id, model)
);

CREATE INDEX usage_daily_customer ON usage_daily (customer_id, day);
CREATE INDEX usage_daily_key ON usage_daily (key_id, day);
CREATE INDEX usage_daily_model ON usage_daily (model, day);
