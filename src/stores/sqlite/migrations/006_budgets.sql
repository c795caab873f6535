-- Spend budgets (docs/spend.md, "Budgets"): an amount in nano-dollars (1e-9 USD) per period ('day',
-- 'month' in UTC, or 'total') and a mode ('hard' refuses, 'soft' flags); NULL amount: no budget. A
-- customer's budget applies to all its keys together, a key's to that key. Set at run time, a customer's
-- budget reaches every instance through the key change feed: setting it stamps each of its keys as changed.
ALTER TABLE customers ADD COLUMN budget_nano_usd INTEGER;
ALTER TABLE customers ADD COLUMN budget_period TEXT;
ALTER TABLE customers ADD COLUMN budget_mode TEXT;
ALTER TABLE api_keys ADD COLUMN budget_nano_usd INTEGER;
ALTER TABLE api_keys ADD COLUMN budget_period TEXT;
ALTER TABLE api_keys ADD COLUMN budget_mode TEXT;
