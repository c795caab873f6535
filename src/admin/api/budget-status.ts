// A budget as the dashboard shows it: the amount, what the key or customer has spent in the current
// period (the usage store's rollup, as a counter is seeded: rows still in a gateway's write buffer are
// not in it yet), what is left, and whether the 80% warning is due.
import type { UsageStore } from '../../metering/usage-store.js';
import { seedFromUsage } from '../../policy/budgets/budget-seed.js';
import { periodAt } from '../../policy/budgets/budget-period.js';
import { budgetView, type BudgetView } from '../../policy/budgets/budget-view.js';
import { BUDGET_WARNING_RATIO, type Budget } from '../../keys/budget.js';
import { formatUsd } from '../../metering/cost.js';

export interface BudgetStatusView extends BudgetView {
  spentUsd: string;
  /** Never below 0. */
  remainingUsd: string;
  /** Spent ÷ amount (1 = all spent; above 1 when a request cost more than was left). */
  utilisation: number;
  /** True from BUDGET_WARNING_RATIO (80%) of the amount spent. */
  warning: boolean;
  /** When the period resets (ISO-8601 UTC); null for a total budget. */
  resetsAt: string | null;
}

export async function budgetStatus(
  usage: Pick<UsageStore, 'totals'>,
  budget: Budget | null,
  owner: { customerId: string; keyId: string | null },
  now: number = Date.now(),
): Promise<BudgetStatusView | null> {
  if (budget === null) return null;
  const window = periodAt(budget.period, now);
  const scope = owner.keyId === null ? 'customer' : 'key';
  const spent = await seedFromUsage(usage)({ scope, customerId: owner.customerId, keyId: owner.keyId ?? '', budget, window });
  return budgetStatusOf(budget, spent, now);
}

/** The view of a budget of which `spentNanoUsd` was spent in the period `now` falls in. */
export function budgetStatusOf(budget: Budget, spentNanoUsd: number | bigint, now: number): BudgetStatusView {
  const spent = BigInt(spentNanoUsd);
  const amount = BigInt(budget.amountNanoUsd);
  const utilisation = Number(spent) / budget.amountNanoUsd;
  const resetsAt = periodAt(budget.period, now).resetsAt;
  return {
    ...(budgetView(budget) as BudgetView),
    spentUsd: formatUsd(spent),
    remainingUsd: formatUsd(spent < amount ? amount - spent : 0n),
    utilisation,
    warning: utilisation >= BUDGET_WARNING_RATIO,
    resetsAt: resetsAt === null ? null : new Date(resetsAt).toISOString(),
  };
}
