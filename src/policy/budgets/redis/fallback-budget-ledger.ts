// Redis when it answers; otherwise this instance's own counters (seeded from the usage store), as the
// rate limits fall back (src/policy/ratelimit/redis/fallback-limiter.ts; the switch itself is
// src/stores/redis/shared-or-local.ts). While Redis is skipped a reservation costs no round trip.
//
// Alone, a hard budget spends only this instance's **lease**: the slice of the budget that every
// decision in Redis renews for it and that Redis counts as spent, so no other instance can spend it
// (BUDGET_RESERVE_SCRIPT). Whether Redis is cut for the whole fleet or only for this instance, and
// however the instances flap between Redis and their own counters, what they spend alone was set aside
// for them: a hard budget passes its amount by at most one request per instance (docs/spend.md, "Why a
// hard budget holds"). A budget this instance never decided in Redis has no lease here: refused
// while Redis does not answer. What was counted here is added to the fleet's counters once Redis
// answers again, taken from the lease, before this instance's next decision there.
import { SharedOrLocal, type SharedStoreState, type SwitchEvent } from '../../../stores/redis/shared-or-local.js';
import { counterName, type BudgetCharge, type BudgetDecision, type BudgetHold, type BudgetLedger, type SeedSpend } from '../budget-ledger.js';
import { MemoryBudgetLedger, type UnsharedSpend } from '../memory-budget-ledger.js';
import { BUDGET_LEASE_MS, RedisBudgetHold, type RedisBudgetLedger, type SharedBudgetDecision } from './redis-budget-ledger.js';

/** This instance stops spending a lease alone this long before Redis gives it back: clocks a little apart. */
export const LEASE_CLOCK_MARGIN_MS = 10_000;

/** Leases remembered; past it those that ended are dropped. */
const MAX_LEASES = 10_000;

/** This instance's lease on one hard budget's counter, as Redis last told it. */
interface Lease {
  readonly customerId: string;
  /** Nano-dollars Redis holds for this instance (spend counted here since is not taken from it yet). */
  nanoUsd: number;
  /** Until when (epoch ms) this instance may spend it alone. */
  until: number;
}

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
  /** By counter name (hard budgets only). */
  private readonly leases = new Map<string, Lease>();
  /** Spend per counter name sent to Redis and not acknowledged yet. */
  private readonly inHandOver = new Map<string, number>();
  private readonly local: MemoryBudgetLedger;

  /** `seed`: where this instance's own counters start (the usage store's rollup). */
  constructor(
    private readonly shared: RedisBudgetLedger,
    private readonly store: SharedStoreState,
    seed: SeedSpend,
    /** Once when falling back, once when sharing resumes (not per request). */
    log: (event: SwitchEvent, reason: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.local = new MemoryBudgetLedger(seed, { room: (name) => this.leaseLeft(name), now });
    this.switch = new SharedOrLocal(store, (event, reason) => {
      // Counters kept from an earlier outage would show what was spent then: seeded afresh instead.
      if (event === 'fallback') this.local.forgetShared();
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

  /**
   * A graceful stop: hands over what was counted here (if Redis is up), then gives every lease back,
   * so that the others may spend it at once rather than when it ends.
   */
  async flush(): Promise<void> {
    await this.handedOver();
    if (!this.store.up) return;
    const leases = [...this.leases];
    this.leases.clear();
    await Promise.all(leases.map(([name, lease]) => this.shared.releaseLease(lease.customerId, name).catch(() => {})));
  }

  /** Waits for the hand-over of what was counted here, if Redis is up and one is owed. */
  async handedOver(): Promise<void> {
    if (this.handingOver !== null) await this.handingOver;
    if (this.owed && this.store.up) await this.handOver();
  }

  /** What this instance may still spend alone on a hard budget's counter: its lease, less what it counted since. */
  leaseLeft(name: string): number {
    const lease = this.leases.get(name);
    if (lease === undefined || lease.until <= this.now()) return 0;
    return Math.max(0, lease.nanoUsd - Math.max(0, this.local.unshared(name) + (this.inHandOver.get(name) ?? 0)));
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
        const at = this.now();
        return this.shared.reserve(charges, nanoUsd, base, at).then((d) => this.remember(charges, names, d, nanoUsd, at));
      },
      () => {
        this.owed = true;
        const d = this.local.reserve(charges, nanoUsd, baseNanoUsd, (n) => this.sharedInFlight.get(n) ?? 0);
        // Seeding may take a store read: a hand-over meanwhile has not taken this hold, so it is owed again.
        return d instanceof Promise ? d.finally(() => (this.owed = true)) : d;
      },
    );
  }

  /**
   * What Redis showed: the floor of this instance's own counters should Redis stop answering, and its
   * lease on each hard budget (asked for at `at`: Redis keeps it until BUDGET_LEASE_MS after that).
   */
  private remember(charges: readonly BudgetCharge[], names: readonly string[], d: SharedBudgetDecision, held: number, at: number): BudgetDecision {
    names.forEach((n, i) => {
      this.local.noteShared(n, d.spentBefore[i] + (d.allowed ? held : 0));
      if (charges[i].budget.mode === 'hard') this.noteLease(n, charges[i].customerId, d.leases[i], at + BUDGET_LEASE_MS - LEASE_CLOCK_MARGIN_MS);
    });
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

  private noteLease(name: string, customerId: string, nanoUsd: number, until: number): void {
    if (nanoUsd <= 0) {
      this.leases.delete(name);
      return;
    }
    if (this.leases.size >= MAX_LEASES && !this.leases.has(name)) {
      const now = this.now();
      for (const [n, l] of this.leases) if (l.until <= now) this.leases.delete(n);
    }
    this.leases.set(name, { customerId, nanoUsd, until });
  }

  /**
   * Adds to Redis what each counter here grew by since the last hand-over, taken from this instance's
   * lease first: one script per counter (a counter Redis does not have starts from all counted here,
   * BUDGET_HAND_OVER_SCRIPT). One that fails is kept for the next, and decisions stay here until it
   * lands (decide). Until Redis says what is left of the lease, the spend under way still counts
   * against it here (leaseLeft).
   */
  private handOver(): Promise<void> {
    if (this.handingOver !== null) return this.handingOver;
    this.owed = false;
    const spend = this.local.takeUnshared();
    for (const s of spend) this.inHandOver.set(s.name, s.nanoUsd);
    let failed = false;
    const handedOver = (s: UnsharedSpend, leaseAfter: number) => {
      this.inHandOver.delete(s.name);
      const lease = this.leases.get(s.name);
      if (lease === undefined) return;
      if (leaseAfter <= 0) this.leases.delete(s.name);
      else lease.nanoUsd = leaseAfter;
    };
    const kept = (s: UnsharedSpend) => {
      this.inHandOver.delete(s.name);
      this.local.restoreUnshared(s);
      this.owed = true;
      failed = true;
    };
    const handOvers = spend.map((s) => this.shared.addSpent(s).then((leaseAfter) => handedOver(s, leaseAfter), () => kept(s)));
    // Reservations given up on while this instance decided alone may have run in Redis after all.
    this.handingOver = Promise.all([...handOvers, this.shared.reclaimAbandoned()]).then(() => {
      this.handOverFailed = failed;
      this.handingOver = null;
    });
    return this.handingOver;
  }
}
