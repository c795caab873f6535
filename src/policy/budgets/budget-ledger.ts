// The budget ledger contract: what each budget has spent in its current period, fleet-wide. A request
// reserves its maximum cost in every budget that applies before it goes upstream, and settles with its
// real cost afterwards (src/gateway/stages/budget.ts). The in-process ledger answers synchronously once a counter is
// seeded; the Redis one with a promise, so callers accept either.
import type { BudgetScope } from '../../observability/metrics.js';
import type { Budget } from '../../keys/budget.js';
import type { PeriodWindow } from './budget-period.js';

/** One budget a request is measured against, in the period it falls in. */
export interface BudgetCharge {
  readonly scope: BudgetScope;
  readonly customerId: string;
  /** The key the request used (the budget's own key when scope is 'key'). */
  readonly keyId: string;
  readonly budget: Budget;
  readonly window: PeriodWindow;
}

/** What an accepted request holds until it settles: opaque to the caller, each ledger's own. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- opaque on purpose: each ledger hands back its own shape
export interface BudgetHold {}

export type BudgetDecision =
  | { readonly allowed: true; readonly hold: BudgetHold; readonly spentBefore: readonly number[] }
  /** refusedBy: the index of the charge that refused. */
  | { readonly allowed: false; readonly refusedBy: number; readonly spentBefore: readonly number[] };

export interface BudgetLedger {
  /**
   * Holds `nanoUsd` (the request's cushioned maximum) in every charge's counter, unless a hard one refuses
   * it by admissionRule (`baseNanoUsd`, default `nanoUsd`: the uncushioned maximum). Every hold counts as
   * in flight on its counters until it settles. spentBefore is per charge.
   */
  reserve(charges: readonly BudgetCharge[], nanoUsd: number, baseNanoUsd?: number): BudgetDecision | Promise<BudgetDecision>;
  /** Replaces the reservation by the request's real cost (more or less than reserved). */
  settle(hold: BudgetHold, nanoUsd: number): void | Promise<void>;
  /** At a graceful stop: hands what this instance counted alone to the shared counters (the Redis fallback only). */
  flush?(): Promise<void>;
}

/** What a budget had spent in a period before any request of this process counted there (the usage store's rollup). */
export type SeedSpend = (charge: BudgetCharge) => Promise<number>;

/**
 * The admission rule of a hard budget (the Redis script applies the same one, redis/budget-scripts.ts;
 * docs/spend.md, "Why a hard budget holds"): a request is admitted beside others while its cushioned
 * maximum `hold` fits on top of what is spent and held; once it no longer does, it is admitted only
 * alone (nothing else in flight on that budget) and only if its uncushioned maximum `base` fits.
 */
export function admits(spent: number, limit: number, hold: number, base: number, inFlight: number): boolean {
  return spent + hold <= limit || (inFlight === 0 && spent + base <= limit);
}

/**
 * The first hard budget that does not admit the request (admits); -1 when none. A soft budget never
 * refuses. `limits[i]` is what charge i may reach (its amount, or this instance's share of what is left);
 * `inFlight[i]` the holds not yet settled on it (all 0 when not given).
 */
export function firstRefusal(
  charges: readonly BudgetCharge[],
  spentBefore: readonly number[],
  cost: number,
  limits: readonly number[],
  inFlight: readonly number[] = [],
  base: number = cost,
): number {
  for (let i = 0; i < charges.length; i++) {
    if (charges[i].budget.mode === 'hard' && !admits(spentBefore[i], limits[i], cost, base, inFlight[i] ?? 0)) return i;
  }
  return -1;
}

/** The counter's name: the budget (key or customer), its period kind and the period itself, so a new period or kind starts afresh. */
export function counterName(c: BudgetCharge): string {
  const owner = c.scope === 'key' ? `key:${c.keyId}` : `customer:${c.customerId}`;
  return `budget:${owner}:${c.window.name}`;
}
