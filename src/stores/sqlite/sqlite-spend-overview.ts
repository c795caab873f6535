// The operators' overview on SQLite (metering/spend-overview.ts): the period's spend from the daily
// rollup, grouped and ranked by the database; the last hour's requests from the per-request rows (their
// `at` index, migration 011). Days are checked before they are bound, like every usage query.
import type { Db } from './open.js';
import { DEFAULT_BUDGET_PERIOD } from '../../keys/budget.js';
import type { BudgetSpend, CustomerSpend, ModelSpend, RecentRequests, SpendOverview, SpendOverviewQuery } from '../../metering/spend-overview.js';
import type { UsageTotals } from '../../metering/usage-store.js';
import { withCost, type StoredSums } from '../stored-cost.js';
import { BUDGETS_CTE, checkedOverviewQuery } from '../spend-overview-query.js';

const PERIOD_TOTALS = `SELECT coalesce(sum(requests), 0) AS requests, coalesce(sum(errors), 0) AS errors,
    coalesce(sum(input_tokens), 0) AS inputTokens, coalesce(sum(output_tokens), 0) AS outputTokens,
    coalesce(sum(cache_read_tokens), 0) AS cacheReadTokens, coalesce(sum(cache_write_tokens), 0) AS cacheWriteTokens,
    CAST(coalesce(sum(cost_nano_usd), 0) AS TEXT) AS costNanoUsd
  FROM usage_daily WHERE day >= @since AND day <= @until`;

// Requests without a key are grouped under '' in the rollup: they belong to no customer.
const TOP_CUSTOMERS = `SELECT u.customer_id AS customerId, c.name AS customerName, sum(u.requests) AS requests,
    CAST(sum(u.cost_nano_usd) AS TEXT) AS costNanoUsd
  FROM usage_daily u LEFT JOIN customers c ON c.id = u.customer_id
  WHERE u.day >= @since AND u.day <= @until AND u.customer_id <> ''
  GROUP BY u.customer_id, c.name
  ORDER BY sum(u.cost_nano_usd) DESC, sum(u.requests) DESC, c.name, u.customer_id
  LIMIT @top`;

const TOP_MODELS = `SELECT model, sum(requests) AS requests, CAST(sum(cost_nano_usd) AS TEXT) AS costNanoUsd
  FROM usage_daily WHERE day >= @since AND day <= @until
  GROUP BY model
  ORDER BY sum(cost_nano_usd) DESC, sum(requests) DESC, model
  LIMIT @top`;

// Each budget summed over its own current window: a day budget over today, a month budget over this
// month, a total budget over every day.
const BUDGETS_NEAR_END = `WITH ${BUDGETS_CTE}, spent AS (
    SELECT b.*, (
      SELECT coalesce(sum(u.cost_nano_usd), 0) FROM usage_daily u
      WHERE u.customer_id = b.customer_id AND (b.key_id IS NULL OR u.key_id = b.key_id)
        AND CASE coalesce(b.period, @defaultPeriod)
          WHEN 'day' THEN u.day >= @daySince AND u.day <= @dayUntil
          WHEN 'month' THEN u.day >= @monthSince AND u.day <= @monthUntil
          ELSE 1 END
    ) AS spent
    FROM budgets b
  )
  SELECT customer_id AS customerId, customer_name AS customerName, key_id AS keyId, key_name AS keyName,
    key_prefix AS keyPrefix, amount AS amountNanoUsd, period, mode, CAST(spent AS TEXT) AS spentNanoUsd
  FROM spent
  WHERE spent * 100 >= amount * @percent
  ORDER BY CAST(spent AS REAL) / amount DESC, customer_name, key_id IS NOT NULL, coalesce(key_name, ''), key_id`;

const RECENT = `SELECT count(*) AS requests, coalesce(sum(status >= 400), 0) AS errors
  FROM usage_records WHERE at >= @sinceMs`;

type StoredBudgetSpend = Omit<BudgetSpend, 'spentNanoUsd'> & { spentNanoUsd: string };

export function sqliteSpendOverview(db: Db, query: SpendOverviewQuery): SpendOverview {
  const q = checkedOverviewQuery(query);
  const range = { since: q.period.since, until: q.period.until };
  const totals = withCost(db.prepare(PERIOD_TOTALS).get(range) as StoredSums<UsageTotals>);
  const topCustomers = (db.prepare(TOP_CUSTOMERS).all({ ...range, top: q.top }) as Array<Omit<CustomerSpend, 'costNanoUsd'> & { costNanoUsd: string }>).map(
    (r) => ({ ...r, costNanoUsd: BigInt(r.costNanoUsd) }),
  );
  const topModels = (db.prepare(TOP_MODELS).all({ ...range, top: q.top }) as Array<Omit<ModelSpend, 'costNanoUsd'> & { costNanoUsd: string }>).map((r) => ({
    ...r,
    costNanoUsd: BigInt(r.costNanoUsd),
  }));
  const budgets = db.prepare(BUDGETS_NEAR_END).all({
    defaultPeriod: DEFAULT_BUDGET_PERIOD,
    daySince: q.budgetWindows.day.since,
    dayUntil: q.budgetWindows.day.until,
    monthSince: q.budgetWindows.month.since,
    monthUntil: q.budgetWindows.month.until,
    percent: q.budgetPercent,
  }) as StoredBudgetSpend[];
  const recent = db.prepare(RECENT).get({ sinceMs: q.recentSinceMs }) as RecentRequests;
  return {
    totals,
    topCustomers,
    topModels,
    budgetsNearEnd: budgets.map((b) => ({ ...b, spentNanoUsd: BigInt(b.spentNanoUsd) })),
    recent,
  };
}
