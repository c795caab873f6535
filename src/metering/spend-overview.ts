// The operators' overview as the usage store reads it, in one call: the spend of a period over every
// customer (totals, the customers and models that spent most), the budgets that are nearly spent, and
// the requests and errors of the last hour. The store sums; the caller decides the windows and shapes
// the answer (admin/api/overview-handlers.ts).
import type { UsageTotals } from './usage-totals.js';

/** UTC days YYYY-MM-DD, both ends inclusive. */
export interface DayRange {
  since: string;
  until: string;
}

export interface SpendOverviewQuery {
  /** The days the spend figures cover. */
  period: DayRange;
  /** The current window of a day budget and of a month budget; a total budget counts every day. */
  budgetWindows: { day: DayRange; month: DayRange };
  /** Budgets are listed from this share spent, in whole percent (80: spent × 100 ≥ amount × 80). */
  budgetPercent: number;
  /** Requests that started at or after this moment (epoch ms) are the recent ones. */
  recentSinceMs: number;
  /** Rows in each top list. */
  top: number;
}

export interface CustomerSpend {
  customerId: string;
  /** null for a customer id the customers table no longer knows. */
  customerName: string | null;
  requests: number;
  costNanoUsd: bigint;
}

export interface ModelSpend {
  model: string;
  requests: number;
  costNanoUsd: bigint;
}

/** A customer's budget (keyId null) or a key's, with what was spent of it in its current window. */
export interface BudgetSpend {
  customerId: string;
  customerName: string;
  keyId: string | null;
  keyName: string | null;
  keyPrefix: string | null;
  /** The budget's columns as stored (period and mode null: the defaults, keys/budget.ts). */
  amountNanoUsd: number;
  period: string | null;
  mode: string | null;
  spentNanoUsd: bigint;
}

export interface RecentRequests {
  requests: number;
  /** Of them, answered with status 400 or above (the rollup's `errors`). */
  errors: number;
}

export interface SpendOverview {
  totals: UsageTotals;
  /** Most spent first (then most requests, then by name); customers without a key's requests are left out. */
  topCustomers: CustomerSpend[];
  topModels: ModelSpend[];
  /** Active keys' and customers' budgets spent at least budgetPercent, the most spent share first. */
  budgetsNearEnd: BudgetSpend[];
  recent: RecentRequests;
}
