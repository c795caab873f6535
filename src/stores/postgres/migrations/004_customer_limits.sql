-- A customer's own rate limits, for all its keys together; NULL in both: the configured default
-- (GATEWAY_CUSTOMER_LIMITS) applies. Nullable columns without a default: added without rewriting the
-- table, and an older instance that does not know them keeps working (migrations are additive). Set at
-- run time, they reach every instance through the key change feed: setting them stamps each of the
-- customer's keys as changed.
ALTER TABLE customers ADD COLUMN rpm bigint;
ALTER TABLE customers ADD COLUMN tpm bigint;
