-- The cost of each request and of each rollup group, in nano-dollars (1e-9 USD; docs/spend.md). Rows
-- written before this migration stay at 0: their prices were never recorded, and re-pricing them with
-- today's list would state a cost nobody was charged. An INTEGER holds sums up to about $9.2 billion.
ALTER TABLE usage_records ADD COLUMN cost_nano_usd INTEGER NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN cost_nano_usd INTEGER NOT NULL DEFAULT 0;
