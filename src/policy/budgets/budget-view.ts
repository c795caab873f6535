// A budget as it leaves the process (admin API, CLI --json): the amount as an exact USD decimal string,
// like every cost (JSON has no integer wide enough to be sure of, and a float would not be exact).
import type { Budget, BudgetMode, BudgetPeriod } from '../../keys/budget.js';
import { formatUsd } from '../../metering/cost.js';

export interface BudgetView {
  amountUsd: string;
  period: BudgetPeriod;
  mode: BudgetMode;
}

export function budgetView(b: Budget | null): BudgetView | null {
  return b === null ? null : { amountUsd: formatUsd(b.amountNanoUsd), period: b.period, mode: b.mode };
}
