// Spend counted by one instance while Redis did not answer reaches the fleet's counters once it answers
// again: the machine's Redis behind a TCP relay that is cut (silence both ways, as a partition), and
// restored. Without the hand-over the fleet would spend what was left at the cut a second time.
import t, { type Test } from 'tap';
import type { BudgetCharge, BudgetDecision } from '../../../../../src/policy/budgets/budget-ledger.js';
import { periodAt } from '../../../../../src/policy/budgets/budget-period.js';
import type { Budget } from '../../../../../src/keys/budget.js';
import { MemoryBudgetLedger } from '../../../../../src/policy/budgets/memory-budget-ledger.js';
import { FallbackBudgetLedger } from '../../../../../src/policy/budgets/redis/fallback-budget-ledger.js';
import { budgetCounterKey, RedisBudgetLedger } from '../../../../../src/policy/budgets/redis/redis-budget-ledger.js';
import { GuardedRedis } from '../../../../../src/stores/redis/guarded-redis.js';
import { CuttableRelay } from '../../../../helpers/cuttable-relay.js';
import { waitFor } from '../../../../helpers/wait.js';
import { adminClient, deleteKeys, REDIS_URL, TEST_COMMAND_TIMEOUT_MS, testPrefix } from '../../ratelimit/redis/redis-test-env.js';

const DOLLAR = 1_000_000_000;
const NOV = Date.parse('2026-11-30T12:00:00Z');
const budget: Budget = { amountNanoUsd: 10 * DOLLAR, period: 'month', mode: 'hard' };
const charges: BudgetCharge[] = [{ scope: 'customer', customerId: 'cus_1', keyId: 'key1', budget, window: periodAt('month', NOV) }];
type Allowed = Extract<BudgetDecision, { allowed: true }>;

async function setup(t: Test) {
  const target = new URL(REDIS_URL);
  const relay = new CuttableRelay(target.hostname, Number(target.port || 6379));
  const port = await relay.listen();
  const redis = new GuardedRedis({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS, probeEveryMs: 100, connectTimeoutMs: 300 });
  const admin = await adminClient();
  const prefix = testPrefix();
  t.teardown(async () => {
    await redis.close();
    await relay.close();
    await deleteKeys(admin, prefix);
    await admin.close();
  });
  t.ok(await redis.start(), 'up through the relay');
  // The usage store's rollup for the month: what a counter missing in Redis is seeded from.
  const store = { spent: 0 };
  const seed = async () => store.spent;
  const events: string[] = [];
  const ledger = new FallbackBudgetLedger(new RedisBudgetLedger(redis, prefix, seed), redis, new MemoryBudgetLedger(seed), (event) => events.push(event));
  const counter = async () => Number(await admin.get(budgetCounterKey(prefix, charges[0]!)));

  /** Cuts Redis, and decides until the breaker has opened (each failed call falls back for its request). */
  const cut = async (reserve: (usd: number) => Promise<Allowed>, usd: number): Promise<Allowed[]> => {
    relay.drop();
    const holds: Allowed[] = [];
    while (redis.up && holds.length < 20) holds.push(await reserve(usd));
    t.equal(redis.up, false, `the breaker opened after ${holds.length} failed calls, each decided here`);
    return holds;
  };
  const restore = async () => {
    relay.restore();
    await waitFor(() => redis.up, 5000);
  };
  const reserve = async (usd: number) => {
    const d = await ledger.reserve(charges, usd * DOLLAR);
    t.ok(d.allowed, `$${usd} allowed`);
    return d as Allowed;
  };
  return { ledger, store, events, counter, cut, restore, reserve, redis, admin, prefix };
}

t.test("an instance's spend during a Redis cut is added to the fleet's counter before its next decision there", async (t) => {
  const { ledger, store, events, counter, cut, restore, reserve } = await setup(t);
  const before = await reserve(1);
  await ledger.settle(before.hold, 1 * DOLLAR);
  t.equal(await counter(), 1 * DOLLAR, '$1 counted in Redis before the cut');
  store.spent = 1 * DOLLAR;

  const holds = await cut(reserve, 1);
  holds.push(await reserve(1), await reserve(1));
  t.equal(await counter(), 1 * DOLLAR, 'Redis saw none of them');
  const [late, ...settled] = holds;
  for (const hold of settled) void ledger.settle(hold!.hold, 0.5 * DOLLAR);
  const here = 1 + 0.5 * settled.length + 1; // the seed, the settled ones, the one still reserved

  await restore();
  const next = await reserve(0.25);
  t.equal(next.spentBefore[0], here * DOLLAR, `the next decision in Redis counts the $${here - 1} spent here: $${here}`);
  t.equal(await counter(), (here + 0.25) * DOLLAR, 'and Redis holds it');
  t.same(events, ['fallback', 'resumed'], 'the switch logged once each way');

  // A request decided here during the cut that finishes now: its real cost reaches Redis as well.
  void ledger.settle(late!.hold, 0.1 * DOLLAR);
  await ledger.flush();
  t.equal(await counter(), (here + 0.25 - 0.9) * DOLLAR, 'its unused $0.90 given back in Redis');
  void ledger.settle(next.hold, 0.25 * DOLLAR);
  t.equal(await counter(), (here + 0.25 - 0.9) * DOLLAR, 'a request decided in Redis settles there, as before');
});

t.test('a counter Redis lost meanwhile is seeded from the store, which has the rows: not counted twice', async (t) => {
  const { ledger, store, counter, cut, restore, reserve, admin, prefix } = await setup(t);
  await reserve(1);
  store.spent = 1 * DOLLAR;
  const holds = await cut(reserve, 2);
  for (const h of holds) void ledger.settle(h.hold, 2 * DOLLAR);
  await admin.del(budgetCounterKey(prefix, charges[0]!));
  // The usage rows of the requests decided here are in the store by now.
  store.spent = (1 + 2 * holds.length) * DOLLAR;

  await restore();
  const next = await reserve(0);
  t.equal(next.spentBefore[0], store.spent, `seeded with the store's $${store.spent / DOLLAR}, the cut's spend not added again`);
  t.equal(await counter(), store.spent);
});

t.test('a second outage decides from what the fleet spent since the first, not from what this instance counted then', async (t) => {
  const { ledger, store, counter, cut, restore, reserve, events } = await setup(t);
  await reserve(1);
  store.spent = 1 * DOLLAR;
  const first = await cut(reserve, 1);
  for (const h of first) void ledger.settle(h.hold, 1 * DOLLAR);
  await restore();
  // The rest of the fleet spends through Redis meanwhile (here: this ledger, while Redis answers).
  const spentByFleet = 8 - 1 - first.length;
  t.ok(spentByFleet > 0, `the fleet spends $${spentByFleet} between the outages`);
  await reserve(spentByFleet);
  t.equal(await counter(), 8 * DOLLAR, '$8 of $10 spent before the second outage');
  store.spent = 8 * DOLLAR;

  const second = await cut(reserve, 0.25);
  const spentThen = 8 + 0.25 * second.length;
  // Counted from this instance's first outage instead, it would have $3 and these, and room for this.
  const refused = await ledger.reserve(charges, (10 - spentThen + 0.01) * DOLLAR);
  t.same([refused.allowed, refused.spentBefore[0]], [false, spentThen * DOLLAR], `seeded afresh from the store's $8: $${spentThen} spent, no room for more than what is left`);
  t.same(events, ['fallback', 'resumed', 'fallback'], 'each outage logged once');
});

t.test('spend counted here before Redis had the counter (its first use fell in a cut) is handed over, not dropped', async (t) => {
  const { ledger, counter, cut, restore, reserve } = await setup(t);
  // The store has no row of these requests yet: they are still in flight.
  const holds = await cut(reserve, 1);
  const here = holds.length;
  await restore();
  const next = await reserve(0.25);
  t.equal(next.spentBefore[0], here * DOLLAR, `the next decision in Redis counts the $${here} held here`);
  t.equal(await counter(), (here + 0.25) * DOLLAR, 'and Redis holds it');
  for (const h of holds) void ledger.settle(h.hold, 0.5 * DOLLAR);
  await ledger.flush();
  t.equal(await counter(), (here * 0.5 + 0.25) * DOLLAR, 'their settles reach it too');
});
