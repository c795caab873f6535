// The fleet-wide budget ledger: the counters live in Redis, keyed by budget and period
// ({customer}:budget:...:m2026-11) and expiring a day after the period ends; a counter missing in Redis
// (first use in a period, a flush) is seeded from the usage store's rollup by the same atomic script.
// Each decision also renews this instance's lease on each hard budget: the slice it may spend alone
// should Redis stop answering it (BUDGET_RESERVE_SCRIPT; fallback-budget-ledger.ts).
import { randomUUID } from 'node:crypto';
import { SingleFlight } from '../../../lib/single-flight.js';
import { assertPrefix } from '../../../stores/redis/keys.js';
import type { ScriptRunner } from '../../../stores/redis/lua-script.js';
import { keptUntil } from '../budget-period.js';
import { counterName, type BudgetCharge, type BudgetDecision, type BudgetHold, type BudgetLedger, type SeedSpend } from '../budget-ledger.js';
import type { UnsharedSpend } from '../memory-budget-ledger.js';
import { BUDGET_HAND_OVER_SCRIPT, BUDGET_RECLAIM_SCRIPT, BUDGET_RELEASE_LEASE_SCRIPT, BUDGET_RESERVE_SCRIPT, BUDGET_SETTLE_SCRIPT } from './budget-scripts.js';

export class RedisBudgetHold implements BudgetHold {
  constructor(
    /** The counters, then their in-flight sets. */
    readonly keys: readonly string[],
    readonly reserved: number,
    readonly id: string,
  ) {}
}

/**
 * How long a hold counts as in flight when its instance never settles it (it died): longer than any
 * request may last, so a live request is never forgotten; meanwhile its budget admits nothing alone.
 */
export const HOLD_LEASE_MS = 15 * 60_000;

/**
 * How long an instance's lease on a budget lasts after its last decision in Redis: an instance that
 * died gives its slice back to the others then. The instance itself stops spending it alone a little
 * earlier (fallback-budget-ledger.ts), so that clocks a few seconds apart never let both spend it.
 */
export const BUDGET_LEASE_MS = 15 * 60_000;

/** A decision in Redis, with this instance's lease on each charge after it (0 for a soft budget). */
export type SharedBudgetDecision = BudgetDecision & { readonly leases: readonly number[] };

export interface RedisBudgetLedgerOptions {
  /** This instance, as its leases are named in Redis (unique in the fleet). */
  instanceId?: string;
  /**
   * What is free on a hard budget is divided by this to make this instance's lease (default 2: half of
   * it for one instance alone); the gateway gives twice the live instances it knows of. 0: no lease.
   */
  leaseDivisor?: () => number;
}

/** A reservation given up on (its call failed or passed its deadline): the script may have run anyway. */
interface AbandonedHold {
  readonly keys: readonly string[];
  readonly args: readonly string[];
}

/** Abandoned holds remembered until Redis answers again; past it the oldest are forgotten (they end by themselves). */
const MAX_ABANDONED = 10_000;

/** When a charge's Redis keys may expire, as the scripts take it ('' = never). */
function expireAtArg(c: BudgetCharge): string {
  return String(keptUntil(c.window) ?? '');
}

/** The names of a counter's leases and of their ends in Redis. */
function leaseKeys(counter: string): [string, string] {
  return [`${counter}:lease`, `${counter}:lease-end`];
}

/** A counter's Redis key: the customer's hash tag, so a request's counters share a slot (Redis Cluster). */
export function budgetCounterKey(prefix: string, charge: BudgetCharge): string {
  return counterKey(prefix, charge.customerId, counterName(charge));
}

function counterKey(prefix: string, customerId: string, name: string): string {
  return `${prefix}{${customerId}}:${name}`;
}

export class RedisBudgetLedger implements BudgetLedger {
  /** Store reads under way, by counter: requests arriving together at a period's start share one. */
  private readonly seeding = new SingleFlight<number>();
  private abandoned: AbandonedHold[] = [];

  readonly instanceId: string;
  private readonly leaseDivisor: () => number;

  constructor(
    private readonly redis: ScriptRunner,
    private readonly prefix: string,
    private readonly seed: SeedSpend,
    options: RedisBudgetLedgerOptions = {},
  ) {
    assertPrefix(prefix);
    this.instanceId = options.instanceId ?? randomUUID();
    this.leaseDivisor = options.leaseDivisor ?? (() => 2);
  }

  /** `now`: when the decision was asked for; the lease's end counts from it. */
  async reserve(charges: readonly BudgetCharge[], nanoUsd: number, baseNanoUsd: number = nanoUsd, now: number = Date.now()): Promise<SharedBudgetDecision> {
    const n = charges.length;
    const counters = charges.map((c) => budgetCounterKey(this.prefix, c));
    const leases = counters.map(leaseKeys);
    const keys = [...counters, ...counters.map((k) => `${k}:flight`), ...leases.map((l) => l[0]), ...leases.map((l) => l[1])];
    const hold = { id: randomUUID(), nanoUsd, baseNanoUsd };
    let reply: string[];
    try {
      reply = await this.run(keys, charges, hold, now, null);
      if (reply[0] === 'seed') {
        const seeds = await Promise.all(charges.map((c, i) => this.seeding.run(counters[i], () => this.seed(c))));
        reply = await this.run(keys, charges, hold, now, seeds);
      }
    } catch (err) {
      this.abandon(keys, charges, hold.id, nanoUsd, now);
      throw err;
    }
    const spentBefore = reply.slice(2, 2 + n).map(Number);
    const leased = reply.slice(2 + n).map(Number);
    if (reply[0] === '1') return { allowed: true, hold: new RedisBudgetHold(keys.slice(0, 2 * n), nanoUsd, hold.id), spentBefore, leases: leased };
    return { allowed: false, refusedBy: Number(reply[1]), spentBefore, leases: leased };
  }

  async settle(hold: BudgetHold, nanoUsd: number): Promise<void> {
    if (!(hold instanceof RedisBudgetHold)) throw new TypeError('settle: not a hold of this ledger');
    // Also when the cost is what was held: the hold leaves the in-flight sets.
    await this.redis.evalScript(BUDGET_SETTLE_SCRIPT, [...hold.keys], [String(nanoUsd - hold.reserved), hold.id]);
  }

  /**
   * Adds spend counted elsewhere (an instance's own counters while Redis did not answer) to a counter; a
   * counter missing here starts from all that instance counted (BUDGET_HAND_OVER_SCRIPT says why).
   */
  async addSpent(spend: UnsharedSpend): Promise<number> {
    const counter = counterKey(this.prefix, spend.customerId, spend.name);
    const args = [String(spend.nanoUsd), String(spend.spent), String(spend.expireAt ?? ''), this.instanceId];
    return Number(await this.redis.evalScript(BUDGET_HAND_OVER_SCRIPT, [counter, leaseKeys(counter)[0]], args));
  }

  /**
   * Undoes, where they ran after all, the reservations given up on since the last call (BUDGET_RECLAIM_SCRIPT).
   * One that fails is kept for the next call.
   */
  async reclaimAbandoned(): Promise<void> {
    const abandoned = this.abandoned;
    this.abandoned = [];
    await Promise.all(
      abandoned.map((a) =>
        this.redis.evalScript(BUDGET_RECLAIM_SCRIPT, [...a.keys], [...a.args]).catch(() => {
          if (this.abandoned.length < MAX_ABANDONED) this.abandoned.push(a);
        }),
      ),
    );
  }

  /** Reservations given up on and not reclaimed yet. */
  get abandonedHolds(): number {
    return this.abandoned.length;
  }

  /** Gives this instance's lease on a counter (counterName's) back to the others. */
  async releaseLease(customerId: string, name: string): Promise<void> {
    const counter = counterKey(this.prefix, customerId, name);
    await this.redis.evalScript(BUDGET_RELEASE_LEASE_SCRIPT, [counter, ...leaseKeys(counter)], [this.instanceId]);
  }

  private abandon(keys: readonly string[], charges: readonly BudgetCharge[], holdId: string, nanoUsd: number, now: number): void {
    if (this.abandoned.length >= MAX_ABANDONED) this.abandoned.shift();
    const hard = charges.map((c) => (c.budget.mode === 'hard' ? '1' : '0'));
    this.abandoned.push({ keys, args: [holdId, this.instanceId, String(nanoUsd), String(now + BUDGET_LEASE_MS), ...hard, ...charges.map(expireAtArg)] });
  }

  private async run(keys: string[], charges: readonly BudgetCharge[], hold: { id: string; nanoUsd: number; baseNanoUsd: number }, now: number, seeds: number[] | null): Promise<string[]> {
    const divisor = Math.max(0, Math.floor(this.leaseDivisor()));
    const args = [String(hold.nanoUsd), String(hold.baseNanoUsd), hold.id, String(now), String(now + HOLD_LEASE_MS), this.instanceId, String(now + BUDGET_LEASE_MS), String(divisor)];
    charges.forEach((c, i) => {
      args.push(c.budget.mode === 'hard' ? String(c.budget.amountNanoUsd) : '', expireAtArg(c), seeds === null ? '' : String(seeds[i]));
    });
    return (await this.redis.evalScript(BUDGET_RESERVE_SCRIPT, keys, args)) as string[];
  }
}
