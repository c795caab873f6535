-- The operators' overview counts the requests and errors of the last hour from the per-request rows
-- (the rollup is per day). Without an index that is a scan of every row ever written, on the event
-- loop's connection. `at` grows with time, so each insert adds at the index's right edge, and the
-- inserts run on the usage write thread, not the event loop (docs/dashboard.md, "Overview").
CREATE INDEX usage_records_at ON usage_records (at);
