-- Spend budgets (docs/spend.md, "Budgets"): an amount in nano-dollars (1e-9 USD) per period ('day',
-- 'month' in UTC, or 'total') and a mode ('hard' refuses, 'soft' flags); NULL amount: no budget. A
-- customer's budget applies to all its keys together, a key's to that key. Nullable columns without a
-- default: added without rewriting the tables, and an older instance that does not know them keeps
-- working (migrations are additive). Set at run time, a customer's budget reaches every instance through
-- the key change feed: setting it stamps each of the customer's keys as changed.
ALTER TABLE customers ADD COLUMN budget_nano_usd bigint;
ALTER TABLE customers ADD COLUMN budget_period text;
ALTER TABLE customers ADD COLUMN budget_mode text;
ALTER TABLE api_keys ADD COLUMN budget_nano_usd bigint;
ALTER TABLE api_keys ADD COLUMN budget_period text;
ALTER TABLE api_keys ADD COLUMN budget_mode text;
