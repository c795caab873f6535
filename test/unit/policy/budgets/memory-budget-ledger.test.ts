// The in-process budget ledger: seeded once per period from the store, decisions atomic among parallel
// requests, settled with the real cost, a new period starting from its own seed, old periods dropped,
// and, given a room (the lease a Redis gateway holds), a hard budget growing by at most that.
import t from 'tap';
import type { BudgetCharge, BudgetDecision } from '../../../../src/policy/budgets/budget-ledger.js';
import { periodAt } from '../../../../src/policy/budgets/budget-period.js';
import type { Budget } from '../../../../src/keys/budget.js';
import { MemoryBudgetLedger } from '../../../../src/policy/budgets/memory-budget-ledger.js';

const DOLLAR = 1_000_000_000;
const NOV = Date.parse('2026-11-30T12:00:00Z');
const DEC = Date.parse('2026-12-01T00:00:01Z');

function charge(budget: Budget, at: number, scope: 'key' | 'customer' = 'customer'): BudgetCharge {
  return { scope, customerId: 'cus_1', keyId: 'key1', budget, window: periodAt(budget.period, at) };
}
const monthly = (usd: number, mode: Budget['mode'] = 'hard'): Budget => ({ amountNanoUsd: usd * DOLLAR, period: 'month', mode });

function seeds(values: Record<string, number> = {}) {
  const asked: string[] = [];
  const seed = async (c: BudgetCharge) => {
    asked.push(`${c.scope}:${c.window.name}`);
    return values[`${c.scope}:${c.window.name}`] ?? 0;
  };
  return { asked, seed };
}

t.test('seeded once from the store, however many requests wait; then synchronous', async (t) => {
  const { asked, seed } = seeds({ 'customer:m2026-11': 4 * DOLLAR });
  const ledger = new MemoryBudgetLedger(seed);
  const c = [charge(monthly(5), NOV)];
  const first = await Promise.all([ledger.reserve(c, 0.4 * DOLLAR), ledger.reserve(c, 0.4 * DOLLAR), ledger.reserve(c, 0.4 * DOLLAR)]);
  t.same(asked, ['customer:m2026-11'], 'one store read');
  t.same(first.map((d) => d.allowed), [true, true, false], 'the third has no room: $4 + 0.8 + 0.4 > $5');
  t.same(first.map((d) => d.spentBefore[0] / DOLLAR), [4, 4.4, 4.8]);
  const next = ledger.reserve(c, 0);
  t.notOk(next instanceof Promise, 'a seeded counter answers synchronously');
});

t.test('50 parallel requests: never past a hard budget', async (t) => {
  const ledger = new MemoryBudgetLedger(seeds().seed);
  const c = [charge(monthly(1), NOV)];
  const decisions = await Promise.all(Array.from({ length: 50 }, () => ledger.reserve(c, 0.03 * DOLLAR)));
  t.equal(decisions.filter((d) => d.allowed).length, 33, '33 × $0.03 = $0.99 fits, the 34th does not');
});

t.test('settle replaces the reservation by the real cost, more or less', async (t) => {
  const ledger = new MemoryBudgetLedger(seeds().seed);
  const c = [charge(monthly(1), NOV)];
  const a = (await ledger.reserve(c, 0.5 * DOLLAR)) as Extract<BudgetDecision, { allowed: true }>;
  ledger.settle(a.hold, 0.1 * DOLLAR);
  t.equal((await ledger.reserve(c, 0)).spentBefore[0], 0.1 * DOLLAR, 'gave back what it did not use');
  const b = (await ledger.reserve(c, 0.1 * DOLLAR)) as Extract<BudgetDecision, { allowed: true }>;
  ledger.settle(b.hold, 2 * DOLLAR);
  const after = await ledger.reserve(c, 0);
  t.equal(after.spentBefore[0], 2.1 * DOLLAR, 'a request costing more than reserved is counted at its real cost');
  t.equal(after.allowed, false, 'and the next request is refused, even a free one');
});

t.test('soft budgets never refuse; a key and its customer count together', async (t) => {
  const ledger = new MemoryBudgetLedger(seeds().seed);
  const c = [charge(monthly(1, 'soft'), NOV, 'key'), charge(monthly(10), NOV)];
  for (let i = 0; i < 5; i++) t.ok((await ledger.reserve(c, 0.5 * DOLLAR)).allowed);
  const d = await ledger.reserve(c, 0);
  t.same(d.spentBefore, [2.5 * DOLLAR, 2.5 * DOLLAR]);
  const refused = await ledger.reserve(c, 8 * DOLLAR);
  t.same(refused, { allowed: false, refusedBy: 1, spentBefore: [2.5 * DOLLAR, 2.5 * DOLLAR] }, 'the customer budget refuses; nothing counted');
});

t.test('a new month starts from its own seed; a budget raised mid-month applies at once; ended periods are dropped', async (t) => {
  let now = NOV;
  const { asked, seed } = seeds({ 'customer:m2026-11': 5 * DOLLAR, 'customer:m2026-12': 0 });
  const ledger = new MemoryBudgetLedger(seed, { now: () => now });
  t.equal((await ledger.reserve([charge(monthly(5), NOV)], 1)).allowed, false, 'November is spent');
  t.equal((await ledger.reserve([charge(monthly(6), NOV)], 1)).allowed, true, 'raised to $6: room again');
  const dec = await ledger.reserve([charge(monthly(5), DEC)], DOLLAR);
  t.same([dec.allowed, dec.spentBefore[0]], [true, 0], 'December starts from its own spend');
  t.same(asked, ['customer:m2026-11', 'customer:m2026-12']);
  t.equal(ledger.size, 2);
  now = DEC + 86_400_000 + 1;
  ledger.sweep();
  t.equal(ledger.size, 1, 'November is dropped a day after it ended; December stays');
});

t.test('with a room given (a lease held elsewhere): a hard budget grows by at most it, a soft one by anything', async (t) => {
  let room = 1 * DOLLAR;
  const ledger = new MemoryBudgetLedger(seeds({ 'customer:m2026-11': 4 * DOLLAR, 'key:m2026-11': 0 }).seed, { room: () => room });
  const hard = [charge(monthly(7), NOV)];
  t.ok((await ledger.reserve(hard, 0.6 * DOLLAR)).allowed, '$0.60 of a $1 room');
  room = 0.4 * DOLLAR;
  const near = await ledger.reserve(hard, 0.6 * DOLLAR, 0.4 * DOLLAR);
  t.notOk(near.allowed, 'a hold past the room is refused beside one in flight, though $2.40 of the amount is left');
  t.same(near.spentBefore, [4.6 * DOLLAR], 'spent counts from the seed');
  room = 0;
  const soft = [charge(monthly(1, 'soft'), NOV, 'key')];
  t.ok((await ledger.reserve(soft, 5 * DOLLAR)).allowed, 'a soft budget is never refused');
  t.equal(ledger.unshared('budget:key:key1:m2026-11'), 5 * DOLLAR, 'its growth is what a shared ledger has not seen');
});

t.test('a seed that fails is not remembered: the next request asks again', async (t) => {
  let fail = true;
  const ledger = new MemoryBudgetLedger(async () => {
    if (fail) throw new Error('database down');
    return 0;
  });
  const c = [charge(monthly(1), NOV)];
  await t.rejects(Promise.resolve(ledger.reserve(c, 1)), /database down/);
  fail = false;
  t.ok((await ledger.reserve(c, 1)).allowed);
});

t.test('what a shared ledger has not seen: growth since seeding, taken once, put back when not handed over', async (t) => {
  // A November counter may expire in the shared ledger a day after the month.
  const DEC_2 = Date.parse('2026-12-02T00:00:00Z');
  const { seed } = seeds({ 'customer:m2026-11': 1 * DOLLAR });
  const ledger = new MemoryBudgetLedger(seed);
  const customer = [charge(monthly(10), NOV)];
  const both = [charge(monthly(5), NOV, 'key'), ...customer];
  t.same(ledger.takeUnshared(), [], 'nothing counted yet');
  const a = (await ledger.reserve(both, 2 * DOLLAR)) as Extract<BudgetDecision, { allowed: true }>;
  ledger.settle(a.hold, 1.5 * DOLLAR);
  const taken = ledger.takeUnshared();
  t.same(
    taken,
    [
      { customerId: 'cus_1', name: 'budget:key:key1:m2026-11', nanoUsd: 1.5 * DOLLAR, spent: 1.5 * DOLLAR, expireAt: DEC_2 },
      { customerId: 'cus_1', name: 'budget:customer:cus_1:m2026-11', nanoUsd: 1.5 * DOLLAR, spent: 2.5 * DOLLAR, expireAt: DEC_2 },
    ],
    'the seed is not counted again: only what was spent here (and the whole, for a shared ledger without the counter)',
  );
  t.same(ledger.takeUnshared(), [], 'taken once');
  ledger.restoreUnshared(taken[1]!);
  const b = (await ledger.reserve(customer, 0.5 * DOLLAR)) as Extract<BudgetDecision, { allowed: true }>;
  t.same(ledger.takeUnshared(), [{ customerId: 'cus_1', name: 'budget:customer:cus_1:m2026-11', nanoUsd: 2 * DOLLAR, spent: 3 * DOLLAR, expireAt: DEC_2 }], 'what was put back, with the reservation since');
  ledger.settle(b.hold, 0.2 * DOLLAR);
  t.same(ledger.takeUnshared(), [{ customerId: 'cus_1', name: 'budget:customer:cus_1:m2026-11', nanoUsd: -0.3 * DOLLAR, spent: 2.7 * DOLLAR, expireAt: DEC_2 }], 'a settle after the hand-over: the difference, given back');
  t.equal((await ledger.reserve(customer, 0)).spentBefore[0], 2.7 * DOLLAR, 'the counter itself is unchanged by all this');
});
