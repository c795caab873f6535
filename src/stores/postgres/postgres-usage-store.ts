// UsageStore on PostgreSQL. A batch is written at least once (the caller retries) and stored exactly once:
// one multi-row INSERT ... ON CONFLICT DO NOTHING, and the daily rollup adds only the rows that INSERT
// reports back as new, in the same transaction. Reports read the rollup.
import { dailyIncrements } from '../../metering/daily-rollup.js';
import { isDay, UsageQueryError, type UsageQuery, type UsageRecord, type UsageRow, type UsageStore, type UsageTotals } from '../../metering/usage-store.js';
import { inTransaction, type WatchedPool } from './pool.js';
import { monthsOf, orderedIncrements, orderedUniqueRecords, usageRowKey } from './usage-batch.js';
import { withCost, type StoredSums } from '../stored-cost.js';
import type { SpendOverview, SpendOverviewQuery } from '../../metering/spend-overview.js';
import { postgresSpendOverview } from './postgres-spend-overview.js';

// float8 so node-postgres hands back numbers (it gives bigint and numeric as text); exact below 2^53.
// The cost alone stays text, the exact numeric sum, read into a BigInt: money sums may pass 2^53.
const SUMS = `coalesce(sum(u.requests), 0)::float8 AS requests,
  coalesce(sum(u.errors), 0)::float8 AS errors,
  coalesce(sum(u.input_tokens), 0)::float8 AS "inputTokens",
  coalesce(sum(u.output_tokens), 0)::float8 AS "outputTokens",
  coalesce(sum(u.cache_read_tokens), 0)::float8 AS "cacheReadTokens",
  coalesce(sum(u.cache_write_tokens), 0)::float8 AS "cacheWriteTokens",
  coalesce(sum(u.cost_nano_usd), 0)::text AS "costNanoUsd"`;

/** What the export prices apart, per row (migration 010). */
const INVOICE_DETAIL = `coalesce(sum(u.cache_write_1h_tokens), 0)::float8 AS "cacheWrite1hTokens",
  coalesce(sum(u.web_searches), 0)::float8 AS "webSearches"`;

/** Builds the WHERE clause from the filters that are set; values are always bound, never spliced in. */
function where(q: UsageQuery): { sql: string; params: string[] } {
  for (const [label, day] of [['since', q.since], ['until', q.until]] as const) {
    if (day !== undefined && !isDay(day)) throw new UsageQueryError(`${label} must be a date YYYY-MM-DD, got "${day}"`);
  }
  const filters: Array<[string, string | undefined]> = [
    ['u.customer_id =', q.customerId],
    ['u.key_id =', q.keyId],
    ['u.model =', q.model],
    ['u.day >=', q.since],
    ['u.day <=', q.until],
  ];
  const parts: string[] = [];
  const params: string[] = [];
  for (const [test, value] of filters) {
    if (value === undefined) continue;
    params.push(value);
    parts.push(`${test} $${params.length}`);
  }
  return { sql: parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`, params };
}

// The batch goes as one JSON parameter, the records as they are (JSON.stringify is native): as 15 array
// parameters, node-postgres escaped every element in JavaScript, ~10% of the gateway's CPU per request
// (bench/tools/stores-cpu.ts). The day is the request's UTC date, as dayOf() files it; the rows go in the
// batch's order (a set-returning function keeps its input's), which orderedUniqueRecords fixed.
const INSERT_RECORDS = `INSERT INTO usage_records (request_id, day, at, customer_id, key_id, model, provider, surface, input_tokens,
    output_tokens, cache_read_tokens, cache_write_tokens, status, duration_ms, outcome, cost_nano_usd, estimated, cache_write_1h_tokens,
    web_searches)
  SELECT r."requestId", (to_timestamp(r.at / 1000.0) AT TIME ZONE 'UTC')::date, to_timestamp(r.at / 1000.0), r."customerId",
    r."keyId", r.model, r.provider, r.surface, r."inputTokens", r."outputTokens", r."cacheReadTokens", r."cacheWriteTokens", r.status,
    round(r."durationMs")::integer, r.outcome, r."costNanoUsd", coalesce(r.estimated, false), coalesce(r."cacheWrite1hTokens", 0),
    coalesce(r."webSearches", 0)
  FROM json_to_recordset($1::json) AS r("requestId" text, at float8, "customerId" text, "keyId" text,
    model text, provider text, surface text, "inputTokens" bigint, "outputTokens" bigint, "cacheReadTokens" bigint, "cacheWriteTokens" bigint,
    status integer, "durationMs" float8, outcome text, "costNanoUsd" bigint, estimated boolean, "cacheWrite1hTokens" bigint, "webSearches" bigint)
  ON CONFLICT (request_id, day) DO NOTHING
  RETURNING request_id, to_char(day, 'YYYY-MM-DD') AS day`;

// WITH ORDINALITY ... ORDER BY: the rows are upserted, and so locked, in the order they were sorted in.
const ADD_TO_DAYS = `INSERT INTO usage_daily (day, customer_id, key_id, model, provider, requests, errors, input_tokens, output_tokens,
    cache_read_tokens, cache_write_tokens, cost_nano_usd, cache_write_1h_tokens, web_searches)
  SELECT day, customer_id, key_id, model, provider, requests, errors, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
    cost_nano_usd, cache_write_1h_tokens, web_searches
  FROM unnest($1::date[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[],
    $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bigint[])
    WITH ORDINALITY AS i(day, customer_id, key_id, model, provider, requests, errors, input_tokens, output_tokens,
      cache_read_tokens, cache_write_tokens, cost_nano_usd, cache_write_1h_tokens, web_searches, n)
  ORDER BY n
  ON CONFLICT (day, customer_id, key_id, model, provider) DO UPDATE SET
    requests = usage_daily.requests + excluded.requests,
    errors = usage_daily.errors + excluded.errors,
    input_tokens = usage_daily.input_tokens + excluded.input_tokens,
    output_tokens = usage_daily.output_tokens + excluded.output_tokens,
    cache_read_tokens = usage_daily.cache_read_tokens + excluded.cache_read_tokens,
    cache_write_tokens = usage_daily.cache_write_tokens + excluded.cache_write_tokens,
    cost_nano_usd = usage_daily.cost_nano_usd + excluded.cost_nano_usd,
    cache_write_1h_tokens = usage_daily.cache_write_1h_tokens + excluded.cache_write_1h_tokens,
    web_searches = usage_daily.web_searches + excluded.web_searches`;

export class PostgresUsageStore implements UsageStore {
  /** Months whose partition this process has made sure of; a new month costs one extra call. */
  private readonly monthsReady = new Set<string>();

  constructor(private readonly pool: WatchedPool) {}

  /** Idempotent: records already stored (same request id and day) are neither stored nor counted again. */
  async insertBatch(rows: UsageRecord[]): Promise<void> {
    if (rows.length === 0) return;
    const batch = orderedUniqueRecords(rows);
    await this.ensurePartitions(batch.map((b) => b.day));
    await inTransaction(this.pool, async (client) => {
      const records = batch.map((b) => b.record);
      const inserted = await client.query<{ request_id: string; day: string }>(INSERT_RECORDS, [JSON.stringify(records)]);
      if (inserted.rows.length === 0) return;
      const isNew = new Set(inserted.rows.map((r) => usageRowKey(r.request_id, r.day)));
      const fresh = batch.filter((b) => isNew.has(usageRowKey(b.record.requestId, b.day))).map((b) => b.record);
      const sums = orderedIncrements(dailyIncrements(fresh));
      const field = <K extends keyof (typeof sums)[number]>(k: K) => sums.map((d) => d[k]);
      await client.query(ADD_TO_DAYS, [
        field('day'),
        field('customerId'),
        field('keyId'),
        field('model'),
        field('provider'),
        field('requests'),
        field('errors'),
        field('inputTokens'),
        field('outputTokens'),
        field('cacheReadTokens'),
        field('cacheWriteTokens'),
        field('costNanoUsd'),
        field('cacheWrite1hTokens'),
        field('webSearches'),
      ]);
    });
  }

  async query(q: UsageQuery = {}): Promise<UsageRow[]> {
    const w = where(q);
    const { rows } = await this.pool.query<StoredSums<UsageRow>>(
      `SELECT to_char(u.day, 'YYYY-MM-DD') AS day, nullif(u.customer_id, '') AS "customerId", c.name AS "customerName",
         u.model AS model, nullif(u.provider, '') AS provider, ${SUMS}, ${INVOICE_DETAIL}
       FROM usage_daily u LEFT JOIN customers c ON c.id = u.customer_id
       ${w.sql}
       GROUP BY u.day, u.customer_id, c.name, u.model, u.provider
       ORDER BY u.day DESC, c.name COLLATE "C" NULLS FIRST, u.model COLLATE "C", u.provider COLLATE "C"`,
      w.params,
    );
    return rows.map(withCost);
  }

  async totals(q: UsageQuery = {}): Promise<UsageTotals> {
    const w = where(q);
    const { rows } = await this.pool.query<StoredSums<UsageTotals>>(`SELECT ${SUMS} FROM usage_daily u ${w.sql}`, w.params);
    return withCost(rows[0]);
  }

  spendOverview(q: SpendOverviewQuery): Promise<SpendOverview> {
    return postgresSpendOverview(this.pool, q);
  }

  /** Each month's partition is created once, by whichever instance reaches the month first. */
  private async ensurePartitions(days: string[]): Promise<void> {
    for (const month of monthsOf(days)) {
      if (this.monthsReady.has(month)) continue;
      await this.pool.query('SELECT usage_month_partition($1::date)', [month]);
      this.monthsReady.add(month);
    }
  }
}
