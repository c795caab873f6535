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
  /** The last hand-over did not all land: Redis lacks spend counted here (decide). */
  private handOverFailed = false;
  /** Hand-overs under way: the next shared decision waits for them. */
  private handingOver: Promise<void> | null = null;
  /** Holds Redis admitted for this instance and not settled yet, per counter name: see decide. */
  private readonly sharedInFlight = new Map<string, number>();
  private readonly sharedHoldNames = new WeakMap<RedisBudgetHold, readonly string[]>();

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
    if (hold instanceof RedisBudgetHold) {
      this.countShared(this.sharedHoldNames.get(hold) ?? [], -1);
      return this.switch.settle(true, () => this.shared.settle(hold, nanoUsd), () => {});
    }
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

  /**
   * One instance's decisions may be taken by either ledger, even while the store is up (a call that fails
   * falls back for its request), and neither ledger sees the other's holds in flight. So that an instance
   * never has a request admitted alone beside another of its own (docs/spend.md, "Why a hard budget
   * holds"): a local decision counts this instance's Redis holds in flight as in flight, and a decision in
   * Redis while holds taken here are in flight is not admitted alone (its base is its hold). A decision
   * in Redis while spend counted here could not be handed over would not see that spend: it is taken
   * here instead, until a hand-over lands.
   */
  private decide(charges: readonly BudgetCharge[], nanoUsd: number, baseNanoUsd: number): BudgetDecision | Promise<BudgetDecision> {
    const names = charges.map(counterName);
    return this.switch.decide(
      () => {
        if (this.handOverFailed) throw new Error('spend counted here not handed over yet');
        const base = names.some((n) => this.local.inFlight(n) > 0) ? nanoUsd : baseNanoUsd;
        return this.shared.reserve(charges, nanoUsd, base).then((d) => this.remember(names, d, nanoUsd));
      },
      () => {
        this.owed = true;
        const d = this.local.reserve(charges, nanoUsd, baseNanoUsd, (n) => this.sharedInFlight.get(n) ?? 0);
        // Seeding may take a store read: a hand-over meanwhile has not taken this hold, so it is owed again.
        return d instanceof Promise ? d.finally(() => (this.owed = true)) : d;
      },
    );
  }

  /** What Redis showed: the floor of this instance's own counters should Redis stop answering. */
  private remember(names: readonly string[], d: BudgetDecision, held: number): BudgetDecision {
    names.forEach((n, i) => this.local.noteShared(n, d.spentBefore[i] + (d.allowed ? held : 0)));
    if (d.allowed && d.hold instanceof RedisBudgetHold) {
      this.sharedHoldNames.set(d.hold, names);
      this.countShared(names, 1);
    }
    return d;
  }

  private countShared(names: readonly string[], by: 1 | -1): void {
    for (const n of names) {
      const count = (this.sharedInFlight.get(n) ?? 0) + by;
      if (count > 0) this.sharedInFlight.set(n, count);
      else this.sharedInFlight.delete(n);
    }
  }

  /**
   * Adds to Redis what each counter here grew by since the last hand-over: one script per counter (a
   * counter Redis does not have starts from all counted here, BUDGET_HAND_OVER_SCRIPT). One that fails
   * is kept for the next, and decisions stay here until it lands (decide).
   */
  private handOver(): Promise<void> {
    if (this.handingOver !== null) return this.handingOver;
    this.owed = false;
    const spend = this.local.takeUnshared();
    let failed = false;
    this.handingOver = Promise.all(
      spend.map((s) =>
        this.shared.addSpent(s).catch(() => {
          this.local.restoreUnshared(s);
          this.owed = true;
          failed = true;
        }),
      ),
    ).then(() => {
      this.handOverFailed = failed;
      this.handingOver = null;
    });
    return this.handingOver;
  }
}
