// Overview (operators): the state of the whole gateway on one page. The spend of this calendar month
// (UTC) over every customer, the customers and models that spent most, the keys' and customers' budgets
// of which at least 80% is spent (each in its own day, month or lifetime), the requests and errors of the
// last hour, and the upstream routes as the Routes page shows them. Sums come from the usage store (rows
// still in a gateway's write buffer, at most one flush interval, are not in them yet).
import { BUDGET_WARNING_RATIO, budgetFromColumns } from '../../keys/budget.js';
import type { SpendOverviewQuery, BudgetSpend } from '../../metering/spend-overview.js';
import type { UsageStore } from '../../metering/usage-store.js';
import { withCostUsd } from '../../metering/usage-cost-json.js';
import { formatUsd } from '../../metering/cost.js';
import { periodAt } from '../../policy/budgets/budget-period.js';
import type { RouteTable } from '../../policy/routing/route-table.js';
import type { Provider } from '../../providers/provider.js';
import { budgetStatusOf, type BudgetStatusView } from './budget-status.js';
import { routesOverview, type RoutesOverview } from './route-handlers.js';
import type { UsageCounts } from './usage-summary.js';
import type { ApiRoute } from './types.js';
import { ok } from './types.js';

/** Rows of each top list. */
export const OVERVIEW_TOP = 10;
/** How far back the recent requests and errors go. */
export const RECENT_MS = 3_600_000;

export interface BudgetNearEndView extends BudgetStatusView {
  customerId: string;
  customerName: string;
  /** null for the customer's own budget (all its keys together). */
  keyId: string | null;
  keyName: string | null;
  keyPrefix: string | null;
}

export interface OverviewView {
  /** When this was read (ISO). */
  at: string;
  /** The calendar month (UTC) the spend figures cover, first and last day. */
  period: { from: string; to: string };
  spend: UsageCounts;
  topCustomers: Array<{ customerId: string; customerName: string | null; requests: number; costUsd: string }>;
  topModels: Array<{ model: string; requests: number; costUsd: string }>;
  /** The share of a budget from which it is listed, in percent (BUDGET_WARNING_RATIO). */
  budgetWarningPercent: number;
  /** The most spent share first. */
  budgetsNearEnd: BudgetNearEndView[];
  /** Requests that started since `since` (ISO), and of them those answered with status 400 or above. */
  lastHour: { since: string; requests: number; errors: number };
  routes: RoutesOverview;
}

export interface OverviewDeps {
  usageStore: Pick<UsageStore, 'spendOverview'>;
  providers: readonly Provider[];
  routeTable: RouteTable;
  wallClock: () => number;
}

export function overviewRoutes(deps: OverviewDeps): ApiRoute[] {
  return [{ method: 'GET', pattern: '/overview', access: 'operator', handler: async () => ok(await overview(deps)) }];
}

export async function overview(deps: OverviewDeps): Promise<OverviewView> {
  const now = deps.wallClock();
  const month = periodAt('month', now);
  const day = periodAt('day', now);
  const range = (w: typeof month) => ({ since: w.since ?? '', until: w.until ?? '' });
  const query: SpendOverviewQuery = {
    period: range(month),
    budgetWindows: { day: range(day), month: range(month) },
    budgetPercent: Math.round(BUDGET_WARNING_RATIO * 100),
    recentSinceMs: now - RECENT_MS,
    top: OVERVIEW_TOP,
  };
  const found = await deps.usageStore.spendOverview(query);
  return {
    at: new Date(now).toISOString(),
    period: { from: query.period.since, to: query.period.until },
    spend: withCostUsd(found.totals),
    topCustomers: found.topCustomers.map(({ costNanoUsd, ...c }) => ({ ...c, costUsd: formatUsd(costNanoUsd) })),
    topModels: found.topModels.map(({ costNanoUsd, ...m }) => ({ ...m, costUsd: formatUsd(costNanoUsd) })),
    budgetWarningPercent: query.budgetPercent,
    budgetsNearEnd: found.budgetsNearEnd.map((b) => budgetNearEnd(b, now)),
    lastHour: { since: new Date(query.recentSinceMs).toISOString(), ...found.recent },
    routes: routesOverview(deps.providers, deps.routeTable, now),
  };
}

function budgetNearEnd(b: BudgetSpend, now: number): BudgetNearEndView {
  // budgetFromColumns gives a budget whenever the amount is set, which the store's rows always have.
  const budget = budgetFromColumns(b.amountNanoUsd, b.period, b.mode)!;
  return {
    customerId: b.customerId,
    customerName: b.customerName,
    keyId: b.keyId,
    keyName: b.keyName,
    keyPrefix: b.keyPrefix,
    ...budgetStatusOf(budget, b.spentNanoUsd, now),
  };
}
