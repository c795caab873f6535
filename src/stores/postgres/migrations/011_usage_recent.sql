-- The operators' overview counts the requests and errors of the last hour from the per-request rows
-- (the rollup is per day). A BRIN index on `at`: rows arrive in about the order of `at`, so a summary
-- of each block range is enough to skip all but the newest blocks of the month's partition, and
-- keeping it costs the writers next to nothing, unlike a B-tree (docs/dashboard.md, "Overview"); the
-- newest ranges, not yet summarised, are always read, and they are the ones the count wants.
-- Created on the partitioned table, so every month's partition, present and future, gets its own.
CREATE INDEX usage_records_at ON usage_records USING brin (at) WITH (autosummarize = on);
