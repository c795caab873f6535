-- Every usage row names the provider that served it (a route's provider id, docs/routes.md): the
-- per-request rows get a column, and the daily rollup groups by it too, so one model served by two
-- accounts shows as two rows. Rows written before this migration, and requests that reached no
-- provider, carry '' in the rollup and NULL per request. The numbers 007 and 008 are other features'.
ALTER TABLE usage_records ADD COLUMN provider text;
ALTER TABLE usage_daily ADD COLUMN provider text NOT NULL DEFAULT '';
ALTER TABLE usage_daily DROP CONSTRAINT usage_daily_pkey;
ALTER TABLE usage_daily ADD PRIMARY KEY (day, customer_id, key_id, model, provider);
