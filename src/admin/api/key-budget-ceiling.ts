// The ceiling on the budget a customer user gives a key: never above its customer's budget (issue 34:
// customer users could give a key any budget), when that budget is hard. Compared by amount whatever the two periods, so a key's
// budget never promises more than its customer may spend; a key without a budget of its own is fine,
// its customer's budget applies to it anyway. Operators set any budget they like and are not checked.
// Key creation and key edits both call this one function.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Budget } from '../../keys/budget.js';
import { formatUsd } from '../../metering/cost.js';
import type { Actor } from '../auth/actor.js';

/** The form field a refusal names, so the dashboard moves focus to it. */
export const KEY_BUDGET_PARAM = 'budgetUsd';

/**
 * Throws 403 `forbidden` naming `budgetUsd` when a customer user asks for a key budget above the
 * customer's. `requested`: the budget of a new key, or an edit's budget change (its amount, when it has one).
 */
export function assertKeyBudgetWithinCustomer(actor: Actor | null, requested: { amountNanoUsd?: number } | null, customerBudget: Budget | null): void {
  // A soft customer budget refuses nothing (it flags): it is no ceiling to hold a key's budget under.
  if (actor?.role !== 'customer' || requested?.amountNanoUsd === undefined || customerBudget?.mode !== 'hard') return;
  if (requested.amountNanoUsd <= customerBudget.amountNanoUsd) return;
  const ceiling = formatUsd(customerBudget.amountNanoUsd);
  const per = customerBudget.period === 'total' ? 'in total' : `per ${customerBudget.period}`;
  throw new GatewayError(
    'forbidden',
    `Your customer's budget is ${ceiling} USD ${per}: a key's budget of ${formatUsd(requested.amountNanoUsd)} USD is above it; set at most ${ceiling}.`,
    { param: KEY_BUDGET_PARAM },
  );
}
