// UsageStore on the embedded SQLite database: each batch inserts its per-request rows and adds its sums
// to the daily rollup in one transaction; reports read the rollup (migrations 002, 003, 005 and 009).
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.js';
import { dailyIncrements } from '../../metering/daily-rollup.js';
import { dayOf, isDay, UsageQueryError, type UsageQuery, type UsageRecord, type UsageRow, type UsageStore, type UsageTotals } from '../../metering/usage-store.js';
import { withCost, type StoredSums } from '../stored-cost.js';
import type { SpendOverview, SpendOverviewQuery } from '../../metering/spend-overview.js';
import { sqliteSpendOverview } from './sqlite-spend-overview.js';

const SUMS = `coalesce(sum(u.requests), 0) AS requests,
  coalesce(sum(u.errors), 0) AS errors,
  coalesce(sum(u.input_tokens), 0) AS inputTokens,
  coalesce(sum(u.output_tokens), 0) AS outputTokens,
  coalesce(sum(u.cache_read_tokens), 0) AS cacheReadTokens,
  coalesce(sum(u.cache_write_tokens), 0) AS cacheWriteTokens,
  CAST(coalesce(sum(u.cost_nano_usd), 0) AS TEXT) AS costNanoUsd`;

/** What the export prices apart, per row (migration 010). */
const INVOICE_DETAIL = `coalesce(sum(u.cache_write_1h_tokens), 0) AS cacheWrite1hTokens,
  coalesce(sum(u.web_searches), 0) AS webSearches`;

/** Builds the WHERE clause from the filters that are set; values are always bound, never spliced in. */
function where(q: UsageQuery): { sql: string; params: string[] } {
  for (const [label, day] of [['since', q.since], ['until', q.until]] as const) {
    if (day !== undefined && !isDay(day)) throw new UsageQueryError(`${label} must be a date YYYY-MM-DD, got "${day}"`);
  }
  const parts: string[] = [];
  const params: string[] = [];
  const add = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    parts.push(sql);
    params.push(value);
  };
  add('u.customer_id = ?', q.customerId);
  add('u.key_id = ?', q.keyId);
  add('u.model = ?', q.model);
  add('u.day >= ?', q.since);
  add('u.day <= ?', q.until);
  return { sql: parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`, params };
}

export class SqliteUsageStore implements UsageStore {
  private readonly insert: Statement;
  private readonly addToDay: Statement;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      `INSERT INTO usage_records (at, day, request_id, customer_id, key_id, model, provider, surface, input_tokens,
         output_tokens, cache_read_tokens, cache_write_tokens, cost_nano_usd, status, duration_ms, outcome, estimated,
         cache_write_1h_tokens, web_searches)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.addToDay = db.prepare(
      `INSERT INTO usage_daily (day, customer_id, key_id, model, provider, requests, errors, input_tokens, output_tokens,
         cache_read_tokens, cache_write_tokens, cost_nano_usd, cache_write_1h_tokens, web_searches)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, customer_id, key_id, model, provider) DO UPDATE SET
         requests = requests + excluded.requests,
         errors = errors + excluded.errors,
         input_tokens = input_tokens + excluded.input_tokens,
         output_tokens = output_tokens + excluded.output_tokens,
         cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
         cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
         cost_nano_usd = cost_nano_usd + excluded.cost_nano_usd,
         cache_write_1h_tokens = cache_write_1h_tokens + excluded.cache_write_1h_tokens,
         web_searches = web_searches + excluded.web_searches`,
    );
  }

  async insertBatch(rows: UsageRecord[]): Promise<void> {
    this.insertRows(rows);
  }

  /** insertBatch without the promise: one transaction, done when it returns (the usage thread's call). */
  insertRows(rows: UsageRecord[]): void {
    if (rows.length === 0) return;
    this.db.transaction(() => {
      for (const r of rows) {
        this.insert.run(
          r.at,
          dayOf(r.at),
          r.requestId,
          r.customerId,
          r.keyId,
          r.model,
          r.provider ?? null,
          r.surface,
          r.inputTokens,
          r.outputTokens,
          r.cacheReadTokens,
          r.cacheWriteTokens,
          r.costNanoUsd,
          r.status,
          Math.round(r.durationMs),
          r.outcome,
          r.estimated === true ? 1 : 0,
          r.cacheWrite1hTokens ?? 0,
          r.webSearches ?? 0,
        );
      }
      for (const d of dailyIncrements(rows)) {
        this.addToDay.run(d.day, d.customerId, d.keyId, d.model, d.provider, d.requests, d.errors, d.inputTokens, d.outputTokens, d.cacheReadTokens, d.cacheWriteTokens, d.costNanoUsd, d.cacheWrite1hTokens, d.webSearches);
      }
    })();
  }

  async query(q: UsageQuery = {}): Promise<UsageRow[]> {
    const w = where(q);
    return (this.db
      .prepare(
        `SELECT u.day AS day, nullif(u.customer_id, '') AS customerId, c.name AS customerName, u.model AS model,
           nullif(u.provider, '') AS provider, ${SUMS}, ${INVOICE_DETAIL}
         FROM usage_daily u LEFT JOIN customers c ON c.id = u.customer_id
         ${w.sql}
         GROUP BY u.day, u.customer_id, u.model, u.provider
         ORDER BY u.day DESC, c.name, u.model, u.provider`,
      )
      .all(...w.params) as Array<StoredSums<UsageRow>>)
      .map(withCost);
  }

  async totals(q: UsageQuery = {}): Promise<UsageTotals> {
    const w = where(q);
    return withCost(this.db.prepare(`SELECT ${SUMS} FROM usage_daily u ${w.sql}`).get(...w.params) as StoredSums<UsageTotals>);
  }

  async spendOverview(q: SpendOverviewQuery): Promise<SpendOverview> {
    return sqliteSpendOverview(this.db, q);
  }
}
