-- A usage row whose tokens the gateway estimated (docs/spend.md, "Cancelled requests"): the client left
-- before the provider's final usage came, so the output is estimated from the deltas relayed to it (and
-- the input from the reservation's estimate when the provider never reported it). 0 for older rows.
ALTER TABLE usage_records ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;
