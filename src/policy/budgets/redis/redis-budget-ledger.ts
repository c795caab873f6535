// The fleet-wide budget ledger: the counters live in Redis, keyed by budget and period
// ({customer}:budget:...:m2026-11) and expiring a day after the period ends; a counter missing in Redis
// (first use in a period, a flush) is seeded from the usage store's rollup by the same atomic script.
import { randomUUID } from 'node:crypto';
import { SingleFlight } from '../../../lib/single-flight.js';
import { assertPrefix } from '../../../stores/redis/keys.js';
import type { ScriptRunner } from '../../../stores/redis/lua-script.js';
import { KEEP_AFTER_PERIOD_MS } from '../budget-period.js';
import { counterName, type BudgetCharge, type BudgetDecision, type BudgetHold, type BudgetLedger, type SeedSpend } from '../budget-ledger.js';
import type { UnsharedSpend } from '../memory-budget-ledger.js';
import { BUDGET_HAND_OVER_SCRIPT, BUDGET_RESERVE_SCRIPT, BUDGET_SETTLE_SCRIPT } from './budget-scripts.js';

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

  constructor(
    private readonly redis: ScriptRunner,
    private readonly prefix: string,
    private readonly seed: SeedSpend,
  ) {
    assertPrefix(prefix);
  }

  async reserve(charges: readonly BudgetCharge[], nanoUsd: number, baseNanoUsd: number = nanoUsd): Promise<BudgetDecision> {
    const counters = charges.map((c) => budgetCounterKey(this.prefix, c));
    const keys = [...counters, ...counters.map((k) => `${k}:flight`)];
    const hold = { id: randomUUID(), nanoUsd, baseNanoUsd };
    let reply = await this.run(keys, charges, hold, null);
    if (reply[0] === 'seed') {
      const seeds = await Promise.all(charges.map((c, i) => this.seeding.run(counters[i], () => this.seed(c))));
      reply = await this.run(keys, charges, hold, seeds);
    }
    const spentBefore = reply.slice(2).map(Number);
    if (reply[0] === '1') return { allowed: true, hold: new RedisBudgetHold(keys, nanoUsd, hold.id), spentBefore };
    return { allowed: false, refusedBy: Number(reply[1]), spentBefore };
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
  async addSpent(spend: UnsharedSpend): Promise<void> {
    const expireAt = spend.expireAt === null ? '' : String(spend.expireAt);
    await this.redis.evalScript(BUDGET_HAND_OVER_SCRIPT, [counterKey(this.prefix, spend.customerId, spend.name)], [String(spend.nanoUsd), String(spend.spent), expireAt]);
  }

  private async run(keys: string[], charges: readonly BudgetCharge[], hold: { id: string; nanoUsd: number; baseNanoUsd: number }, seeds: number[] | null): Promise<string[]> {
    const now = Date.now();
    const args = [String(hold.nanoUsd), String(hold.baseNanoUsd), hold.id, String(now), String(now + HOLD_LEASE_MS)];
    charges.forEach((c, i) => {
      const resetsAt = c.window.resetsAt;
      args.push(c.budget.mode === 'hard' ? String(c.budget.amountNanoUsd) : '', resetsAt === null ? '' : String(resetsAt + KEEP_AFTER_PERIOD_MS), seeds === null ? '' : String(seeds[i]));
    });
    return (await this.redis.evalScript(BUDGET_RESERVE_SCRIPT, keys, args)) as string[];
  }
}
