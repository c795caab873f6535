// A hard budget while Redis does not answer one instance: it spends alone only its lease (the slice of
// the budget every decision in Redis renews for it and that Redis counts as spent), so the instances
// still deciding in Redis cannot spend that slice too. Instance A reaches the machine's Redis through a
// TCP relay that is cut (silence both ways, as a partition) and restored; instance B reaches it
// directly. What A counted alone reaches the fleet's counter, taken from its lease, before its next
// decision there.
import t, { type Test } from 'tap';
import type { BudgetCharge, BudgetDecision } from '../../../../../src/policy/budgets/budget-ledger.js';
import { counterName } from '../../../../../src/policy/budgets/budget-ledger.js';
import { periodAt } from '../../../../../src/policy/budgets/budget-period.js';
import type { Budget } from '../../../../../src/keys/budget.js';
import { FallbackBudgetLedger, LEASE_CLOCK_MARGIN_MS } from '../../../../../src/policy/budgets/redis/fallback-budget-ledger.js';
import { BUDGET_LEASE_MS, budgetCounterKey, RedisBudgetLedger } from '../../../../../src/policy/budgets/redis/redis-budget-ledger.js';
import { GuardedRedis } from '../../../../../src/stores/redis/guarded-redis.js';
import { CuttableRelay } from '../../../../helpers/cuttable-relay.js';
import { waitFor } from '../../../../helpers/wait.js';
import { adminClient, deleteKeys, REDIS_URL, TEST_COMMAND_TIMEOUT_MS, testPrefix } from '../../ratelimit/redis/redis-test-env.js';

const DOLLAR = 1_000_000_000;
const NOV = Date.parse('2026-11-30T12:00:00Z');
const hard: Budget = { amountNanoUsd: 10 * DOLLAR, period: 'month', mode: 'hard' };
const soft: Budget = { ...hard, mode: 'soft' };
const charge = (budget: Budget, customerId = 'cus_1'): BudgetCharge => ({ scope: 'customer', customerId, keyId: 'key1', budget, window: periodAt('month', NOV) });
const charges = [charge(hard)];
type Allowed = Extract<BudgetDecision, { allowed: true }>;
// Two instances: each lease is a quarter of what is free.
const leaseDivisor = () => 4;

async function setup(t: Test) {
  const target = new URL(REDIS_URL);
  const relay = new CuttableRelay(target.hostname, Number(target.port || 6379));
  const port = await relay.listen();
  const cuttable = new GuardedRedis({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS, probeEveryMs: 100, connectTimeoutMs: 1000 });
  const direct = new GuardedRedis({ url: REDIS_URL, commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS });
  const admin = await adminClient();
  const prefix = testPrefix();
  t.teardown(async () => {
    await cuttable.close();
    await direct.close();
    await relay.close();
    await deleteKeys(admin, prefix);
    await admin.close();
  });
  // On a loaded machine a first connect may pass its deadline: the probe keeps trying, as in a gateway.
  await Promise.all([cuttable.start(), direct.start()]);
  await waitFor(() => cuttable.up && direct.up, 10_000);
  t.pass('A up through the relay, B up');
  // The usage store's rollup for the month: what a counter is seeded from.
  const store = { spent: 0 };
  const seed = async () => store.spent;
  const events: string[] = [];
  const clock = { now: Date.now() };
  const a = new FallbackBudgetLedger(new RedisBudgetLedger(cuttable, prefix, seed, { leaseDivisor }), cuttable, seed, (event) => events.push(event), () => clock.now);
  const b = new FallbackBudgetLedger(new RedisBudgetLedger(direct, prefix, seed, { leaseDivisor }), direct, seed);
  const counter = async (c = charges[0]) => Number(await admin.get(budgetCounterKey(prefix, c)));

  /** Cuts A's Redis, and decides until its breaker has opened (each failed call falls back for its request). */
  const cut = async (usd: number): Promise<BudgetDecision[]> => {
    relay.drop();
    const decisions: BudgetDecision[] = [];
    while (cuttable.up && decisions.length < 20) decisions.push(await a.reserve(charges, usd * DOLLAR));
    t.equal(cuttable.up, false, `A's breaker opened after ${decisions.length} failed calls, each decided in A`);
    return decisions;
  };
  const restore = async () => {
    relay.restore();
    await waitFor(() => cuttable.up, 5000);
  };
  return { a, b, store, events, counter, cut, restore, clock, admin, prefix, direct };
}

const allowed = (d: BudgetDecision): Allowed => {
  if (!d.allowed) throw new Error('refused');
  return d;
};

t.test('A cut off, B in Redis: A spends alone only its lease, B cannot spend it, and the budget holds exactly', async (t) => {
  const { a, b, counter, cut, restore, events } = await setup(t);
  const first = allowed(await a.reserve(charges, 1 * DOLLAR));
  await a.settle(first.hold, 1 * DOLLAR);
  // $1 spent; A's lease: a quarter of the $9 free.
  const lease = 2.25;
  t.equal(await counter(), (1 + lease) * DOLLAR, 'Redis counts A\'s lease as spent');
  t.equal(a.leaseLeft(counterName(charges[0])), lease * DOLLAR, 'and A knows its lease');

  const heldInA = (await cut(0.5)).filter((d) => d.allowed).map(allowed);
  t.ok(heldInA.length <= 4, `A admitted ${heldInA.length} × $0.50 alone: at most its $${lease} lease`);
  // While A is cut, B spends in Redis all it can: what was free, not A's lease.
  const bigB = allowed(await b.reserve(charges, (10 - 1 - lease) * DOLLAR));
  await b.settle(bigB.hold, (10 - 1 - lease) * DOLLAR);
  t.notOk((await b.reserve(charges, 1)).allowed, 'B may not spend a nano-dollar more: the rest is A\'s lease');
  while (heldInA.length < 4) heldInA.push(allowed(await a.reserve(charges, 0.5 * DOLLAR)));
  t.notOk((await a.reserve(charges, 0.5 * DOLLAR)).allowed, 'A is refused past its lease ($0.25 left, requests in flight)');
  for (const d of heldInA) void a.settle(d.hold, 0.5 * DOLLAR);

  await restore();
  const next = await a.reserve(charges, 0);
  t.equal(next.spentBefore[0], (1 + 6.75 + 2) * DOLLAR, 'back in Redis, A\'s $2 spent alone is counted, taken from its lease');
  t.equal(await counter(), 10 * DOLLAR, 'the counter: $9.75 spent and $0.25 still A\'s lease, never past the amount');
  t.same(events, ['fallback', 'resumed'], 'the switch logged once each way');
});

t.test('A\'s spend alone is handed over from its lease before its next decision in Redis; settles below the hold go back to what is free', async (t) => {
  const { a, counter, cut, restore } = await setup(t);
  allowed(await a.reserve(charges, 0));
  const leased = await counter();
  t.equal(leased, 2.5 * DOLLAR, 'a quarter of $10 leased at A\'s first decision');
  const duringCut = (await cut(1)).filter((d) => d.allowed).map(allowed);
  t.ok(duringCut.length <= 2, 'A spends at most its $2.50 alone in $1 holds');
  for (const d of duringCut) void a.settle(d.hold, 0.25 * DOLLAR);
  await restore();
  await a.handedOver();
  // $0.25 per request spent, taken from the lease: the counter still holds spend plus leases.
  t.equal(await counter(), 2.5 * DOLLAR, 'the counter: the spend, taken from the lease, and the rest of the lease');
  t.equal(a.leaseLeft(counterName(charges[0])), (2.5 - 0.25 * duringCut.length) * DOLLAR, 'what is left of A\'s lease');
  const next = await a.reserve(charges, 0);
  t.equal(next.spentBefore[0], 0.25 * duringCut.length * DOLLAR, 'Redis shows what was spent in A');
});

t.test('a hard budget A never decided in Redis has no lease: refused while cut; a soft one is counted and handed over', async (t) => {
  const { a, counter, cut, restore } = await setup(t);
  const other = [charge(hard, 'cus_2')];
  const softly = [charge(soft, 'cus_3')];
  await cut(0);
  t.notOk((await a.reserve(other, 1)).allowed, 'no lease: a hard budget refuses while A decides alone');
  const s = allowed(await a.reserve(softly, 3 * DOLLAR));
  void a.settle(s.hold, 2 * DOLLAR);
  await restore();
  await a.handedOver();
  t.equal(await counter(softly[0]), 2 * DOLLAR, 'the soft budget\'s spend reaches Redis (its counter starts from it)');
  t.ok((await a.reserve(other, 1)).allowed, 'back in Redis, the hard budget admits again');
});

t.test('a lease ends: A stops spending it alone first, then Redis gives it to the others; a graceful stop gives it back at once', async (t) => {
  const { a, b, counter, cut, clock, direct, prefix } = await setup(t);
  allowed(await a.reserve(charges, 0));
  t.equal(await counter(), 2.5 * DOLLAR, 'A holds a $2.50 lease');
  const leasedAt = clock.now;
  await cut(0);
  clock.now = leasedAt + BUDGET_LEASE_MS - LEASE_CLOCK_MARGIN_MS;
  t.notOk((await a.reserve(charges, 1)).allowed, 'A stops spending it alone before Redis gives it away');
  // B's clock past the lease's end: the lease of an instance that no longer renews it is free again.
  const late = new RedisBudgetLedger(direct, prefix, async () => 0, { leaseDivisor: () => 0 });
  const d = await late.reserve(charges, 10 * DOLLAR, 10 * DOLLAR, leasedAt + BUDGET_LEASE_MS + 1);
  t.ok(d.allowed, 'B may spend the whole $10 once A\'s lease ended');

  // A graceful stop: the lease goes back without waiting for its end.
  const c2 = [charge(hard, 'cus_4')];
  allowed(await b.reserve(c2, 0));
  t.equal(await counter(c2[0]), 2.5 * DOLLAR, 'B holds a lease on another budget');
  await b.flush();
  t.equal(await counter(c2[0]), 0, 'given back at B\'s stop');
});
