// The operators' overview on PostgreSQL (metering/spend-overview.ts): the period's spend from the daily
// rollup, grouped and ranked by the database; the last hour's requests from the per-request rows (the
// partitions of the days it spans, then their BRIN index on `at`, migration 011). The same sums and
// order as the SQLite store; names sort by their bytes (COLLATE "C") there as here.
import { DEFAULT_BUDGET_PERIOD } from '../../keys/budget.js';
import type { BudgetSpend, CustomerSpend, ModelSpend, RecentRequests, SpendOverview, SpendOverviewQuery } from '../../metering/spend-overview.js';
import { dayOf, type UsageTotals } from '../../metering/usage-store.js';
import type { WatchedPool } from './pool.js';
import { withCost, type StoredSums } from '../stored-cost.js';
import { BUDGETS_CTE, checkedOverviewQuery } from '../spend-overview-query.js';

// float8 so node-postgres hands back numbers; the cost stays the exact sum as text (postgres-usage-store.ts).
const PERIOD_TOTALS = `SELECT coalesce(sum(requests), 0)::float8 AS requests, coalesce(sum(errors), 0)::float8 AS errors,
    coalesce(sum(input_tokens), 0)::float8 AS "inputTokens", coalesce(sum(output_tokens), 0)::float8 AS "outputTokens",
    coalesce(sum(cache_read_tokens), 0)::float8 AS "cacheReadTokens", coalesce(sum(cache_write_tokens), 0)::float8 AS "cacheWriteTokens",
    coalesce(sum(cost_nano_usd), 0)::text AS "costNanoUsd"
  FROM usage_daily WHERE day >= $1::date AND day <= $2::date`;

// Requests without a key are grouped under '' in the rollup: they belong to no customer.
const TOP_CUSTOMERS = `SELECT u.customer_id AS "customerId", c.name AS "customerName", sum(u.requests)::float8 AS requests,
    sum(u.cost_nano_usd)::text AS "costNanoUsd"
  FROM usage_daily u LEFT JOIN customers c ON c.id = u.customer_id
  WHERE u.day >= $1::date AND u.day <= $2::date AND u.customer_id <> ''
  GROUP BY u.customer_id, c.name
  ORDER BY sum(u.cost_nano_usd) DESC, sum(u.requests) DESC, c.name COLLATE "C", u.customer_id COLLATE "C"
  LIMIT $3`;

const TOP_MODELS = `SELECT model, sum(requests)::float8 AS requests, sum(cost_nano_usd)::text AS "costNanoUsd"
  FROM usage_daily WHERE day >= $1::date AND day <= $2::date
  GROUP BY model
  ORDER BY sum(cost_nano_usd) DESC, sum(requests) DESC, model COLLATE "C"
  LIMIT $3`;

// Each budget summed over its own current window: a day budget over today, a month budget over this
// month, a total budget over every day.
const BUDGETS_NEAR_END = `WITH ${BUDGETS_CTE}, spent AS (
    SELECT b.*, (
      SELECT coalesce(sum(u.cost_nano_usd), 0) FROM usage_daily u
      WHERE u.customer_id = b.customer_id AND (b.key_id IS NULL OR u.key_id = b.key_id)
        AND CASE coalesce(b.period, $1)
          WHEN 'day' THEN u.day >= $2::date AND u.day <= $3::date
          WHEN 'month' THEN u.day >= $4::date AND u.day <= $5::date
          ELSE true END
    ) AS spent
    FROM budgets b
  )
  SELECT customer_id AS "customerId", customer_name AS "customerName", key_id AS "keyId", key_name AS "keyName",
    key_prefix AS "keyPrefix", amount::float8 AS "amountNanoUsd", period, mode, spent::text AS "spentNanoUsd"
  FROM spent
  WHERE spent * 100 >= amount * $6
  ORDER BY spent / amount DESC, customer_name COLLATE "C", key_id IS NOT NULL, coalesce(key_name, '') COLLATE "C", key_id COLLATE "C"`;

// The day bound lets the planner skip every month's partition but the one or two the hour falls in.
const RECENT = `SELECT count(*)::float8 AS requests, count(*) FILTER (WHERE status >= 400)::float8 AS errors
  FROM usage_records WHERE day >= $1::date AND at >= to_timestamp($2::float8 / 1000)`;

type Stored<T, K extends keyof T> = Omit<T, K> & { [P in K]: string };

export async function postgresSpendOverview(pool: WatchedPool, query: SpendOverviewQuery): Promise<SpendOverview> {
  const q = checkedOverviewQuery(query);
  const range = [q.period.since, q.period.until];
  const { day, month } = q.budgetWindows;
  // One after another: a page view takes one of the pool's connections, not five of the request path's.
  const totals = await pool.query<StoredSums<UsageTotals>>(PERIOD_TOTALS, range);
  const customers = await pool.query<Stored<CustomerSpend, 'costNanoUsd'>>(TOP_CUSTOMERS, [...range, q.top]);
  const models = await pool.query<Stored<ModelSpend, 'costNanoUsd'>>(TOP_MODELS, [...range, q.top]);
  const budgets = await pool.query<Stored<BudgetSpend, 'spentNanoUsd'>>(BUDGETS_NEAR_END, [DEFAULT_BUDGET_PERIOD, day.since, day.until, month.since, month.until, q.budgetPercent]);
  const recent = await pool.query<RecentRequests>(RECENT, [dayOf(q.recentSinceMs), q.recentSinceMs]);
  return {
    totals: withCost(totals.rows[0]),
    topCustomers: customers.rows.map((r) => ({ ...r, costNanoUsd: BigInt(r.costNanoUsd) })),
    topModels: models.rows.map((r) => ({ ...r, costNanoUsd: BigInt(r.costNanoUsd) })),
    budgetsNearEnd: budgets.rows.map((r) => ({ ...r, spentNanoUsd: BigInt(r.spentNanoUsd) })),
    recent: recent.rows[0],
  };
}
