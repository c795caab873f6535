-- What an invoice prices apart, kept per request and per day so the usage export can show it row by
-- row: the 1-hour prompt-cache writes (a part of cache_write_tokens, at their own price) and the web
-- searches (server tool uses, priced per use). Older rows, and older instances during a rolling update,
-- leave 0.
ALTER TABLE usage_records ADD COLUMN cache_write_1h_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_records ADD COLUMN web_searches bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN cache_write_1h_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN web_searches bigint NOT NULL DEFAULT 0;
