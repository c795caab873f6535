// Redis when it answers; otherwise this instance's own counters (seeded from the usage store) with its
// share of what each budget had left, as the rate limits fall back (src/ratelimit/redis/fallback-limiter.ts).
// While Redis is skipped a reservation costs no round trip.
import type { SharedStoreState } from '../../ratelimit/redis/fallback-limiter.js';
import type { BudgetCharge, BudgetDecision, BudgetHold, BudgetLedger } from '../budget-ledger.js';
import { MemoryBudgetLedger } from '../memory-budget-ledger.js';
import { RedisBudgetHold } from './redis-budget-ledger.js';

export class FallbackBudgetLedger implements BudgetLedger {
  private inFallback = false;

  /** `local` is given its share by the live instances it last knew of (MemoryBudgetLedger's `share`). */
  constructor(
    private readonly shared: BudgetLedger,
    private readonly store: SharedStoreState,
    private readonly local: MemoryBudgetLedger,
    /** Once when falling back, once when sharing resumes (not per request). */
    private readonly log: (event: 'fallback' | 'resumed', reason: string) => void = () => {},
  ) {}

  reserve(charges: readonly BudgetCharge[], nanoUsd: number): BudgetDecision | Promise<BudgetDecision> {
    if (!this.store.up) return this.fallback(charges, nanoUsd, 'redis down');
    return this.reserveShared(charges, nanoUsd);
  }

  settle(hold: BudgetHold, nanoUsd: number): void | Promise<void> {
    if (!(hold instanceof RedisBudgetHold)) return this.local.settle(hold, nanoUsd);
    // A settle lost with Redis leaves the reservation counted: the store's rollup has the real cost for the next seeding.
    if (!this.store.up) return;
    return Promise.resolve(this.shared.settle(hold, nanoUsd)).catch(() => {});
  }

  private async reserveShared(charges: readonly BudgetCharge[], nanoUsd: number): Promise<BudgetDecision> {
    let decision: BudgetDecision;
    try {
      decision = await this.shared.reserve(charges, nanoUsd);
    } catch (err) {
      return this.fallback(charges, nanoUsd, err instanceof Error ? err.message : String(err));
    }
    if (this.inFallback) {
      this.inFallback = false;
      this.log('resumed', 'redis answering');
    }
    return decision;
  }

  private fallback(charges: readonly BudgetCharge[], nanoUsd: number, reason: string): BudgetDecision | Promise<BudgetDecision> {
    if (!this.inFallback) {
      this.inFallback = true;
      this.log('fallback', reason);
    }
    return this.local.reserve(charges, nanoUsd);
  }
}
