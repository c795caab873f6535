// The in-process budget ledger: one counter per budget and period, seeded from the usage store the first
// time the period is used here (so a restart does not reset spend), then counted here. Used alone by a
// gateway without Redis, and by a Redis gateway while Redis is not answering, where a hard budget may
// spend only the room it is given: the lease this instance holds in Redis (fallback-budget-ledger.ts).
import { SingleFlight } from '../../lib/single-flight.js';
import { keptUntil } from './budget-period.js';
import { counterName, firstRefusal, type BudgetCharge, type BudgetDecision, type BudgetHold, type BudgetLedger, type SeedSpend } from './budget-ledger.js';

interface Counter {
  readonly customerId: string;
  spent: number;
  /** Holds taken here and not settled yet: a request admitted alone needs none (budget-ledger.ts, admits). */
  inFlight: number;
  /** How much of `spent` a shared ledger already has (the seed, then what was handed over): see takeUnshared. */
  shared: number;
  /** Epoch ms after which nothing settles here any more (null: total, kept). */
  readonly dropAfter: number | null;
}

class MemoryHold implements BudgetHold {
  constructor(
    readonly names: readonly string[],
    readonly reserved: number,
  ) {}
}

export interface MemoryBudgetLedgerOptions {
  /**
   * What a hard budget's counter (by counterName) may still grow by here; without it, up to the
   * budget's amount (this process alone counts the budget).
   */
  room?: (name: string) => number;
  now?: () => number;
}

/** Spend of one counter (its name, counterName's) that a shared ledger has not seen. */
export interface UnsharedSpend {
  readonly customerId: string;
  readonly name: string;
  readonly nanoUsd: number;
  /**
   * All this counter has here (its seed, then every reservation and settle): what a shared ledger that no
   * longer has, or never had, the counter starts it from, since the usage store lacks the holds in flight.
   */
  readonly spent: number;
  /** When the shared counter may expire (epoch ms; null: never), as a reservation sets it. */
  readonly expireAt: number | null;
}

/** Shared-spend floors remembered (noteShared); past it the memory starts over. */
const MAX_FLOORS = 10_000;

/** Counters checked for expiry once per this many reservations. */
const SWEEP_EVERY = 1024;

export class MemoryBudgetLedger implements BudgetLedger {
  private readonly counters = new Map<string, Counter>();
  private readonly seeding = new SingleFlight<void>();
  /** The last spend a shared ledger showed per counter (noteShared): a seed never starts below it. */
  private readonly sharedFloor = new Map<string, number>();
  private reservations = 0;
  private readonly room: ((name: string) => number) | null;
  private readonly now: () => number;

  constructor(
    private readonly seed: SeedSpend,
    options: MemoryBudgetLedgerOptions = {},
  ) {
    this.room = options.room ?? null;
    this.now = options.now ?? Date.now;
  }

  /**
   * `inFlightElsewhere`: holds of this instance on a counter that another ledger took (the Redis one, for
   * FallbackBudgetLedger): they count as in flight here too, so that nothing is admitted alone beside them.
   */
  reserve(charges: readonly BudgetCharge[], nanoUsd: number, baseNanoUsd: number = nanoUsd, inFlightElsewhere: (name: string) => number = () => 0): BudgetDecision | Promise<BudgetDecision> {
    if (++this.reservations % SWEEP_EVERY === 0) this.sweep();
    const names = charges.map(counterName);
    const decide = () => this.decide(charges, names, nanoUsd, baseNanoUsd, inFlightElsewhere);
    if (names.every((n) => this.counters.has(n))) return decide();
    // Seeded first, then decided in one synchronous step: parallel requests never read the same room twice.
    return Promise.all(charges.map((c, i) => this.seeded(c, names[i]))).then(decide);
  }

  /** Holds taken here on a counter and not settled yet. */
  inFlight(name: string): number {
    return this.counters.get(name)?.inFlight ?? 0;
  }

  /** What a counter grew by here since the shared ledger last had all of it (negative: given back). */
  unshared(name: string): number {
    const c = this.counters.get(name);
    return c === undefined ? 0 : c.spent - c.shared;
  }

  settle(hold: BudgetHold, nanoUsd: number): void {
    if (!(hold instanceof MemoryHold)) throw new TypeError('settle: not a hold of this ledger');
    const delta = nanoUsd - hold.reserved;
    // A counter dropped meanwhile (its period long over) needs nothing: a later period starts from the store.
    for (const name of hold.names) {
      const counter = this.counters.get(name);
      if (counter === undefined) continue;
      counter.spent += delta;
      counter.inFlight = Math.max(0, counter.inFlight - 1);
    }
  }

  /**
   * What was counted here that the shared ledger has not seen, per counter, marked as seen: a Redis
   * instance's spend while Redis did not answer, for FallbackBudgetLedger to add to the fleet's counters.
   * Settles of holds taken meanwhile count too, whenever they come.
   */
  takeUnshared(): UnsharedSpend[] {
    const out: UnsharedSpend[] = [];
    for (const [name, c] of this.counters) {
      const nanoUsd = c.spent - c.shared;
      if (nanoUsd === 0) continue;
      c.shared = c.spent;
      out.push({ customerId: c.customerId, name, nanoUsd, spent: c.spent, expireAt: c.dropAfter });
    }
    return out;
  }

  /** Puts back one counter's spend that takeUnshared gave and could not be handed over, to hand over next time. */
  restoreUnshared(spend: UnsharedSpend): void {
    const counter = this.counters.get(spend.name);
    if (counter !== undefined) counter.shared -= spend.nanoUsd;
  }

  /**
   * Drops the counters a shared ledger has all of, so that their next use is seeded from the store again:
   * at the start of another Redis outage, what the fleet spent since the last one counts. A counter with
   * holds in flight stays: their settles must still be counted and handed over.
   */
  forgetShared(): void {
    for (const [name, c] of this.counters) if (c.spent === c.shared && c.inFlight === 0) this.counters.delete(name);
  }

  /**
   * What the shared ledger (Redis) said a counter had spent and held at this instance's last decision
   * there. Seeding here during an outage starts from at least that: the usage store has neither the
   * reservations in flight at the cut nor the rows still in write buffers, and seeding from it alone let
   * the fleet spend those a second time (finding N2).
   */
  noteShared(name: string, spent: number): void {
    if (this.sharedFloor.size >= MAX_FLOORS && !this.sharedFloor.has(name)) this.sharedFloor.clear();
    if (spent > (this.sharedFloor.get(name) ?? -Infinity)) this.sharedFloor.set(name, spent);
  }

  /** Counters held now (for tests: ended periods must not accumulate). */
  get size(): number {
    return this.counters.size;
  }

  /** Drops the counters of periods over for more than a day. */
  sweep(now: number = this.now()): void {
    for (const [name, c] of this.counters) if (c.dropAfter !== null && c.dropAfter < now) this.counters.delete(name);
  }

  private decide(charges: readonly BudgetCharge[], names: readonly string[], cost: number, base: number, inFlightElsewhere: (name: string) => number): BudgetDecision {
    const counters = names.map((n, i) => this.counters.get(n) ?? this.create(n, charges[i], 0));
    const spentBefore = counters.map((c) => c.spent);
    const room = this.room;
    const limits = counters.map((c, i) => (room === null ? charges[i].budget.amountNanoUsd : c.spent + room(names[i])));
    const inFlight = counters.map((c, i) => c.inFlight + inFlightElsewhere(names[i]));
    const refusedBy = firstRefusal(charges, spentBefore, cost, limits, inFlight, base);
    if (refusedBy >= 0) return { allowed: false, refusedBy, spentBefore };
    for (const c of counters) {
      c.spent += cost;
      c.inFlight++;
    }
    return { allowed: true, hold: new MemoryHold(names, cost), spentBefore };
  }

  private seeded(charge: BudgetCharge, name: string): Promise<void> {
    if (this.counters.has(name)) return Promise.resolve();
    // One store read per counter however many requests wait for it; a failed read is tried again next time.
    return this.seeding.run(name, async () => {
      const spent = Math.max(await this.seed(charge), this.sharedFloor.get(name) ?? 0);
      if (!this.counters.has(name)) this.create(name, charge, spent);
    });
  }

  private create(name: string, charge: BudgetCharge, spent: number): Counter {
    const counter: Counter = { customerId: charge.customerId, spent, inFlight: 0, shared: spent, dropAfter: keptUntil(charge.window) };
    this.counters.set(name, counter);
    return counter;
  }
}
