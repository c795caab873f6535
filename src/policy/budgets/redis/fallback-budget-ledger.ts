// Redis when it answers; otherwise this instance's own counters (seeded from the usage store) with its
// share of what each budget had left, as the rate limits fall back (src/policy/ratelimit/redis/fallback-limiter.ts; the switch itself is src/stores/redis/shared-or-local.ts).
// While Redis is skipped a reservation costs no round trip. What was counted here meanwhile is added to
// the fleet's counters once Redis answers again, before this instance's next decision there: otherwise
// the fleet would spend what was left a second time.
import { SharedOrLocal, type SharedStoreState, type SwitchEvent } from '../../../stores/redis/shared-or-local.js';
import { counterName, type BudgetCharge, type BudgetDecision, type BudgetHold, type BudgetLedger } from '../budget-ledger.js';
import type { MemoryBudgetLedger } from '../memory-budget-ledger.js';
import { RedisBudgetHold, type RedisBudgetLedger } from './redis-budget-ledger.js';

export class FallbackBudgetLedger implements BudgetLedger {
  private readonly switch: SharedOrLocal;
  /** Something was counted here that Redis has not been given yet. */
  private owed = false;
  /** Hand-overs under way: the next shared decision waits for them. */
  private handingOver: Promise<void> | null = null;

  /** `local` is given its share by the live instances it last knew of (MemoryBudgetLedger's `share`). */
  constructor(
    private readonly shared: RedisBudgetLedger,
    private readonly store: SharedStoreState,
    private readonly local: MemoryBudgetLedger,
    /** Once when falling back, once when sharing resumes (not per request). */
    log: (event: SwitchEvent, reason: string) => void = () => {},
  ) {
    this.switch = new SharedOrLocal(store, (event, reason) => {
      // Counters kept from an earlier outage would decide from what was spent then: seeded afresh instead.
      if (event === 'fallback') local.forgetShared();
      log(event, reason);
    });
  }

  reserve(charges: readonly BudgetCharge[], nanoUsd: number, baseNanoUsd: number = nanoUsd): BudgetDecision | Promise<BudgetDecision> {
    const handingOver = this.owed && this.store.up ? this.handOver() : this.handingOver;
    if (handingOver !== null) return handingOver.then(() => this.decide(charges, nanoUsd, baseNanoUsd));
    return this.decide(charges, nanoUsd, baseNanoUsd);
  }

  settle(hold: BudgetHold, nanoUsd: number): void | Promise<void> {
    // A settle lost with Redis leaves the reservation counted: the store's rollup has the real cost for the next seeding.
    if (hold instanceof RedisBudgetHold) return this.switch.settle(true, () => this.shared.settle(hold, nanoUsd), () => {});
    // A hold taken here: its real cost is counted here, and reaches Redis with the rest (at once if it answers).
    this.local.settle(hold, nanoUsd);
    this.owed = true;
    if (this.store.up) void this.handOver();
  }

  /** Waits for the hand-over of what was counted here, if Redis is up and one is owed (a graceful stop). */
  async flush(): Promise<void> {
    if (this.handingOver !== null) await this.handingOver;
    if (this.owed && this.store.up) await this.handOver();
  }

  private decide(charges: readonly BudgetCharge[], nanoUsd: number, baseNanoUsd: number): BudgetDecision | Promise<BudgetDecision> {
    return this.switch.decide(
      () => this.shared.reserve(charges, nanoUsd, baseNanoUsd).then((d) => this.remember(charges, d, nanoUsd)),
      () => {
        this.owed = true;
        return this.local.reserve(charges, nanoUsd, baseNanoUsd);
      },
    );
  }

  /** What Redis showed: the floor of this instance's own counters should Redis stop answering. */
  private remember(charges: readonly BudgetCharge[], d: BudgetDecision, held: number): BudgetDecision {
    charges.forEach((c, i) => this.local.noteShared(counterName(c), d.spentBefore[i] + (d.allowed ? held : 0)));
    return d;
  }

  /**
   * Adds to Redis what each counter here grew by since the last hand-over: one settle script per counter.
   * One that fails is kept for the next; a counter Redis no longer has is seeded from the store, which has
   * the rows, so it is left alone.
   */
  private handOver(): Promise<void> {
    if (this.handingOver !== null) return this.handingOver;
    this.owed = false;
    const spend = this.local.takeUnshared();
    this.handingOver = Promise.all(
      spend.map((s) =>
        this.shared.addSpent(s.customerId, s.name, s.nanoUsd).catch(() => {
          this.local.restoreUnshared(s);
          this.owed = true;
        }),
      ),
    ).then(() => {
      this.handingOver = null;
    });
    return this.handingOver;
  }
}
