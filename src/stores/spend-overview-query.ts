// Both stores check an overview query the same way before anything is bound: days must be real dates
// (like every usage query), counts whole numbers, so a caller's mistake is an error, never a wrong sum;
// and the SQL both read the same.
import type { SpendOverviewQuery } from '../metering/spend-overview.js';
import { isDay, UsageQueryError } from '../metering/usage-store.js';

export function checkedOverviewQuery(q: SpendOverviewQuery): SpendOverviewQuery {
  const days: Array<[string, string]> = [
    ['period.since', q.period.since],
    ['period.until', q.period.until],
    ['budgetWindows.day.since', q.budgetWindows.day.since],
    ['budgetWindows.day.until', q.budgetWindows.day.until],
    ['budgetWindows.month.since', q.budgetWindows.month.since],
    ['budgetWindows.month.until', q.budgetWindows.month.until],
  ];
  for (const [label, day] of days) {
    if (!isDay(day)) throw new UsageQueryError(`${label} must be a date YYYY-MM-DD, got "${day}"`);
  }
  if (!Number.isSafeInteger(q.top) || q.top < 1) throw new UsageQueryError(`top must be a whole number from 1, got ${q.top}`);
  if (!Number.isSafeInteger(q.budgetPercent) || q.budgetPercent < 0) throw new UsageQueryError(`budgetPercent must be a whole number from 0, got ${q.budgetPercent}`);
  if (!Number.isSafeInteger(q.recentSinceMs)) throw new UsageQueryError(`recentSinceMs must be epoch milliseconds, got ${q.recentSinceMs}`);
  return q;
}

/**
 * Every customer budget and every active key's budget with its owner, as a common table both databases
 * read alike: what the overview sums each budget's window against. A revoked key's budget is no longer
 * anyone's to spend.
 */
export const BUDGETS_CTE = `budgets AS (
    SELECT c.id AS customer_id, c.name AS customer_name, CAST(NULL AS TEXT) AS key_id, CAST(NULL AS TEXT) AS key_name,
      CAST(NULL AS TEXT) AS key_prefix, c.budget_nano_usd AS amount, c.budget_period AS period, c.budget_mode AS mode
    FROM customers c WHERE c.budget_nano_usd IS NOT NULL
    UNION ALL
    SELECT k.customer_id, c.name, k.id, k.name, k.prefix, k.budget_nano_usd, k.budget_period, k.budget_mode
    FROM api_keys k JOIN customers c ON c.id = k.customer_id
    WHERE k.budget_nano_usd IS NOT NULL AND k.status = 'active'
  )`;
