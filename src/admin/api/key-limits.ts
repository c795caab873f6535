// The ceiling a customer user's key must stay under: its customer's own limits (at creation and at an
// edit) and budget (at an edit). A key may be stricter than its customer, never looser; operators set any limits they like
// and are not checked here.
import type { Budget } from '../../keys/budget.js';
import type { RateLimits } from '../../keys/rate-limits.js';
import { formatUsd } from '../../metering/cost.js';

export interface KeyLimitProblem {
  param: keyof RateLimits;
  message: string;
}

const UNITS: Readonly<Record<keyof RateLimits, string>> = { rpm: 'requests', tpm: 'tokens' };

/**
 * null when `requested` (null = no limit) stays within `customer` (null = no customer limits), else the
 * first field that does not, with a message the person can act on.
 */
export function keyLimitProblem(requested: RateLimits, customer: RateLimits | null): KeyLimitProblem | null {
  if (customer === null) return null;
  for (const param of ['rpm', 'tpm'] as const) {
    const ceiling = customer[param];
    const asked = requested[param];
    if (ceiling === null || (asked !== null && asked <= ceiling)) continue;
    const limit = `Your customer's limit is ${ceiling} ${UNITS[param]} per minute`;
    const message = asked === null ? `${limit}: set ${param} to at most ${ceiling}.` : `${limit}: ${param} ${asked} is above it; set at most ${ceiling}.`;
    return { param, message };
  }
  return null;
}

/**
 * null when a key budget of `amountNanoUsd` stays within the customer's budget (or either is none), else a
 * message the person can act on. Only the amounts are compared: a customer user may not give a key more to
 * spend than the whole customer may; the period is theirs to choose.
 */
export function keyBudgetProblem(amountNanoUsd: number | null, customer: Budget | null): string | null {
  if (customer === null || amountNanoUsd === null || amountNanoUsd <= customer.amountNanoUsd) return null;
  const ceiling = formatUsd(customer.amountNanoUsd);
  return `Your customer's budget is ${ceiling} USD per ${customer.period === 'total' ? 'lifetime' : customer.period}: set budgetUsd to at most ${ceiling}.`;
}
