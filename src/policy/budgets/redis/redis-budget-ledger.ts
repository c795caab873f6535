// The fleet-wide budget ledger: the counters live in Redis, keyed by budget and period
// ({customer}:budget:...:m2026-11) and expiring a day after the period ends; a counter missing in Redis
// (first use in a period, a flush) is seeded from the usage store's rollup by the same atomic script.
import { SingleFlight } from '../../../lib/single-flight.js';
import { assertPrefix } from '../../../stores/redis/keys.js';
import type { ScriptRunner } from '../../../stores/redis/lua-script.js';
import { KEEP_AFTER_PERIOD_MS } from '../budget-period.js';
import { counterName, type BudgetCharge, type BudgetDecision, type BudgetHold, type BudgetLedger, type SeedSpend } from '../budget-ledger.js';
import { BUDGET_RESERVE_SCRIPT, BUDGET_SETTLE_SCRIPT } from './budget-scripts.js';

export class RedisBudgetHold implements BudgetHold {
  constructor(
    readonly keys: readonly string[],
    readonly reserved: number,
  ) {}
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

  constructor(
    private readonly redis: ScriptRunner,
    private readonly prefix: string,
    private readonly seed: SeedSpend,
  ) {
    assertPrefix(prefix);
  }

  async reserve(charges: readonly BudgetCharge[], nanoUsd: number): Promise<BudgetDecision> {
    const keys = charges.map((c) => budgetCounterKey(this.prefix, c));
    let reply = await this.run(keys, charges, nanoUsd, null);
    if (reply[0] === 'seed') {
      const seeds = await Promise.all(charges.map((c, i) => this.seeding.run(keys[i], () => this.seed(c))));
      reply = await this.run(keys, charges, nanoUsd, seeds);
    }
    const spentBefore = reply.slice(2).map(Number);
    if (reply[0] === '1') return { allowed: true, hold: new RedisBudgetHold(keys, nanoUsd), spentBefore };
    return { allowed: false, refusedBy: Number(reply[1]), spentBefore };
  }

  async settle(hold: BudgetHold, nanoUsd: number): Promise<void> {
    if (!(hold instanceof RedisBudgetHold)) throw new TypeError('settle: not a hold of this ledger');
    const delta = nanoUsd - hold.reserved;
    if (delta === 0) return;
    await this.redis.evalScript(BUDGET_SETTLE_SCRIPT, [...hold.keys], [String(delta)]);
  }

  /**
   * Adds spend counted elsewhere (an instance's own counters while Redis did not answer) to a counter. A
   * counter missing here is left alone, as a settle leaves it: its seed from the usage store has the rows.
   */
  async addSpent(customerId: string, name: string, nanoUsd: number): Promise<void> {
    await this.redis.evalScript(BUDGET_SETTLE_SCRIPT, [counterKey(this.prefix, customerId, name)], [String(nanoUsd)]);
  }

  private async run(keys: string[], charges: readonly BudgetCharge[], cost: number, seeds: number[] | null): Promise<string[]> {
    const args = [String(cost)];
    charges.forEach((c, i) => {
      const resetsAt = c.window.resetsAt;
      args.push(c.budget.mode === 'hard' ? String(c.budget.amountNanoUsd) : '', resetsAt === null ? '' : String(resetsAt + KEEP_AFTER_PERIOD_MS), seeds === null ? '' : String(seeds[i]));
    });
    return (await this.redis.evalScript(BUDGET_RESERVE_SCRIPT, keys, args)) as string[];
  }
}
