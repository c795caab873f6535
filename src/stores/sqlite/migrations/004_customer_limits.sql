-- A customer's own rate limits, for all its keys together; NULL in both: the configured default
-- (GATEWAY_CUSTOMER_LIMITS) applies. Set at run time, they reach every instance through the key change
-- feed: setting them stamps each of the customer's keys as changed.
ALTER TABLE customers ADD COLUMN rpm INTEGER;
ALTER TABLE customers ADD COLUMN tpm INTEGER;
