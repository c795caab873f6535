// The ceiling a customer user's key must stay under: its customer's own limits, at creation and at an
// edit (its budget: key-budget-ceiling.ts). A key may be stricter than its customer, never looser;
// operators set any limits they like and are not checked here.
import type { RateLimits } from '../../keys/rate-limits.js';

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
