// Redis when it answers; otherwise this instance's own counters (seeded from the usage store) with its
// share of what each budget had left, as the rate limits fall back (src/policy/ratelimit/redis/fallback-limiter.ts).
// While Redis is skipped a reservation costs no round trip.
import { SharedOrLocal, type SharedStoreState, type SwitchEvent } from '../../ratelimit/redis/shared-or-local.js';
import type { BudgetCharge, BudgetDecision, BudgetHold, BudgetLedger } from '../budget-ledger.js';
import { MemoryBudgetLedger } from '../memory-budget-ledger.js';
import { RedisBudgetHold } from './redis-budget-ledger.js';

export class FallbackBudgetLedger implements BudgetLedger {
  private readonly switch: SharedOrLocal;

  /** `local` is given its share by the live instances it last knew of (MemoryBudgetLedger's `share`). */
  constructor(
    private readonly shared: BudgetLedger,
    store: SharedStoreState,
    private readonly local: MemoryBudgetLedger,
    /** Once when falling back, once when sharing resumes (not per request). */
    log: (event: SwitchEvent, reason: string) => void = () => {},
  ) {
    this.switch = new SharedOrLocal(store, log);
  }

  reserve(charges: readonly BudgetCharge[], nanoUsd: number): BudgetDecision | Promise<BudgetDecision> {
    return this.switch.decide(
      () => this.shared.reserve(charges, nanoUsd),
      () => this.local.reserve(charges, nanoUsd),
    );
  }

  settle(hold: BudgetHold, nanoUsd: number): void | Promise<void> {
    // A settle lost with Redis leaves the reservation counted: the store's rollup has the real cost for the next seeding.
    return this.switch.settle(
      hold instanceof RedisBudgetHold,
      () => this.shared.settle(hold, nanoUsd),
      () => this.local.settle(hold, nanoUsd),
    );
  }
}
