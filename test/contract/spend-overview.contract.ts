// What every UsageStore's spendOverview must do (the operators' overview): the period's spend summed and
// ranked over every customer and model, the budgets at or past their share spent in their own window, the
// recent requests and errors. Run by sqlite-stores.test.ts and postgres-stores.test.ts with the same
// factory as the usage contract; every expected number is summed here from the records written.
import type { Test } from 'tap';
import type { Budget } from '../../src/keys/budget.js';
import type { SpendOverviewQuery } from '../../src/metering/spend-overview.js';
import { UsageQueryError, type UsageRecord } from '../../src/metering/usage-store.js';
import { usageRecord } from '../unit/metering/fixtures/usage-record.js';
import type { UsageStoreFactory } from './usage-store.contract.js';

const NOW = Date.parse('2030-03-15T12:00:00Z');
const HOUR = 3_600_000;

/** The windows of 2030-03-15 noon, as the overview handler would ask at that moment. */
function queryAt(over: Partial<SpendOverviewQuery> = {}): SpendOverviewQuery {
  return {
    period: { since: '2030-03-01', until: '2030-03-31' },
    budgetWindows: { day: { since: '2030-03-15', until: '2030-03-15' }, month: { since: '2030-03-01', until: '2030-03-31' } },
    budgetPercent: 80,
    recentSinceMs: NOW - HOUR,
    top: 10,
    ...over,
  };
}

const usd = (n: number) => BigInt(n) * 1_000_000_000n;
const budget = (dollars: number, period: Budget['period'], mode: Budget['mode'] = 'hard'): Budget => ({ amountNanoUsd: dollars * 1e9, period, mode });

export function spendOverviewContract(t: Test, open: UsageStoreFactory): void {
  t.test('the period is summed and ranked over every customer and model, other months left out', async (t) => {
    const { usage, keys } = await open(t);
    const names = ['c-small', 'c-big', 'c-mid', 'c-tie-b', 'c-tie-a'];
    const made = new Map<string, { customerId: string; keyId: string }>();
    for (const name of names) {
      const k = await keys.createKey({ customerName: name });
      made.set(name, { customerId: k.record.customerId, keyId: k.record.id });
    }
    let n = 0;
    const rec = (name: string | null, over: Partial<UsageRecord>) =>
      usageRecord({ requestId: `req_${n++}`, at: NOW - 2 * HOUR, ...(name === null ? {} : made.get(name)), ...over });
    const inPeriod = [
      rec('c-big', { model: 'm-opus', costNanoUsd: 5e9 }),
      rec('c-big', { model: 'm-haiku', costNanoUsd: 1e9, at: Date.parse('2030-03-01T00:00:00Z') }),
      rec('c-mid', { model: 'm-sonnet', costNanoUsd: 3e9, status: 500 }),
      rec('c-small', { model: 'm-haiku', costNanoUsd: 1 }),
      // Equal spend: the one with more requests first, then by name.
      rec('c-tie-b', { model: 'm-sonnet', costNanoUsd: 1e9 }),
      rec('c-tie-a', { model: 'm-sonnet', costNanoUsd: 5e8 }),
      rec('c-tie-a', { model: 'm-sonnet', costNanoUsd: 5e8, at: Date.parse('2030-03-31T23:59:59Z') }),
      // No key: counted in the totals and the models, never as a customer.
      rec(null, { model: 'm-haiku', status: 401, costNanoUsd: 0, inputTokens: 0, outputTokens: 0 }),
    ];
    const outside = [
      rec('c-small', { model: 'm-other', costNanoUsd: 99e9, at: Date.parse('2030-02-28T23:59:59Z') }),
      rec('c-small', { model: 'm-other', costNanoUsd: 99e9, at: Date.parse('2030-04-01T00:00:00Z') }),
    ];
    await usage.insertBatch([...inPeriod, ...outside]);

    const view = await usage.spendOverview(queryAt());
    t.same(view.totals, await usage.totals({ since: '2030-03-01', until: '2030-03-31' }), 'the totals are the period\'s');
    t.equal(view.totals.requests, inPeriod.length);
    t.equal(view.totals.errors, 2);
    t.equal(view.totals.costNanoUsd, inPeriod.reduce((s, r) => s + BigInt(r.costNanoUsd), 0n));
    const id = (name: string) => made.get(name)!.customerId;
    t.same(
      view.topCustomers,
      [
        { customerId: id('c-big'), customerName: 'c-big', requests: 2, costNanoUsd: usd(6) },
        { customerId: id('c-mid'), customerName: 'c-mid', requests: 1, costNanoUsd: usd(3) },
        { customerId: id('c-tie-a'), customerName: 'c-tie-a', requests: 2, costNanoUsd: usd(1) },
        { customerId: id('c-tie-b'), customerName: 'c-tie-b', requests: 1, costNanoUsd: usd(1) },
        { customerId: id('c-small'), customerName: 'c-small', requests: 1, costNanoUsd: 1n },
      ],
    );
    t.same(
      view.topModels,
      [
        { model: 'm-sonnet', requests: 4, costNanoUsd: usd(5) },
        { model: 'm-opus', requests: 1, costNanoUsd: usd(5) },
        { model: 'm-haiku', requests: 3, costNanoUsd: usd(1) + 1n },
      ],
      'equal spend: more requests first',
    );

    const top2 = await usage.spendOverview(queryAt({ top: 2 }));
    t.same(top2.topCustomers.map((c) => c.customerName), ['c-big', 'c-mid'], 'top N keeps the N that spent most');
    t.same(top2.topModels.map((m) => m.model), ['m-sonnet', 'm-opus']);
    const empty = await usage.spendOverview(queryAt({ period: { since: '2031-01-01', until: '2031-01-31' } }));
    t.same([empty.totals.requests, empty.totals.costNanoUsd, empty.topCustomers, empty.topModels], [0, 0n, [], []], 'a period without requests is all zeros');
  });

  t.test('budgets at or past 80% of their own window are listed, the most spent share first', async (t) => {
    const { usage, keys } = await open(t);
    // A customer budget of $10 a month: $8 this month is exactly 80%, last month's $50 does not count.
    const monthly = await keys.createKey({ customerName: 'monthly' });
    await keys.setCustomerBudget(monthly.record.customerId, budget(10, 'month', 'soft'));
    // A key's $2 a day: $2.50 today (125%); yesterday's spend is another window.
    const daily = await keys.createKey({ customerName: 'daily', name: 'ci', budget: budget(2, 'day') });
    // A key's $100 in total: $79.99 over two months is below 80%.
    const lifetime = await keys.createKey({ customerName: 'lifetime', name: 'batch', budget: budget(100, 'total') });
    // A key's $1 in total, $5 spent: 500%, but revoked, so no longer a budget anyone can spend.
    const revoked = await keys.createKey({ customerName: 'lifetime', name: 'old', budget: budget(1, 'total') });
    // A customer budget without its customer's requests; and a key of 'monthly' with its own budget, under 80%.
    const idle = await keys.createKey({ customerName: 'idle' });
    await keys.setCustomerBudget(idle.record.customerId, budget(1, 'day'));
    const own = await keys.createKey({ customerName: 'monthly', name: 'own', budget: budget(20, 'month') });
    const of = (k: typeof monthly) => ({ customerId: k.record.customerId, keyId: k.record.id });
    let n = 0;
    const spend = (k: typeof monthly, dollars: number, at: number) => usageRecord({ ...of(k), requestId: `req_b${n++}`, at, costNanoUsd: Math.round(dollars * 1e9) });
    await usage.insertBatch([
      spend(monthly, 5, NOW),
      spend(own, 3, Date.parse('2030-03-02T08:00:00Z')),
      spend(monthly, 50, Date.parse('2030-02-27T08:00:00Z')),
      spend(daily, 2.5, NOW - 2 * HOUR),
      spend(daily, 40, Date.parse('2030-03-14T23:59:59Z')),
      spend(lifetime, 40, Date.parse('2030-01-10T00:00:00Z')),
      spend(lifetime, 39.99, NOW),
      spend(revoked, 5, NOW),
    ]);
    await keys.revokeKey(revoked.record.id);

    const near = (await usage.spendOverview(queryAt())).budgetsNearEnd;
    t.same(near, [
      {
        customerId: daily.record.customerId,
        customerName: 'daily',
        keyId: daily.record.id,
        keyName: 'ci',
        keyPrefix: daily.record.prefix,
        amountNanoUsd: 2e9,
        period: 'day',
        mode: 'hard',
        spentNanoUsd: 2_500_000_000n,
      },
      {
        customerId: monthly.record.customerId,
        customerName: 'monthly',
        keyId: null,
        keyName: null,
        keyPrefix: null,
        amountNanoUsd: 10e9,
        period: 'month',
        mode: 'soft',
        spentNanoUsd: usd(8),
      },
    ]);
    const all = (await usage.spendOverview(queryAt({ budgetPercent: 0 }))).budgetsNearEnd;
    t.same(
      all.map((b) => [b.customerName, b.keyName, b.spentNanoUsd]),
      [
        ['daily', 'ci', 2_500_000_000n],
        ['monthly', null, usd(8)],
        ['lifetime', 'batch', 79_990_000_000n],
        ['monthly', 'own', usd(3)],
        ['idle', null, 0n],
      ],
      'from 0%: every active budget, each spent in its own window',
    );
  });

  t.test('a customer budget and its key budget at the same share: the customer first, then keys by name', async (t) => {
    const { usage, keys } = await open(t);
    const b = await keys.createKey({ customerName: 'same', name: 'b', budget: budget(10, 'month') });
    const a = await keys.createKey({ customerName: 'same', name: 'a', budget: budget(1, 'month') });
    await keys.setCustomerBudget(b.record.customerId, budget(11, 'month'));
    await usage.insertBatch([
      usageRecord({ customerId: b.record.customerId, keyId: b.record.id, requestId: 'req_t1', at: NOW, costNanoUsd: 9e9 }),
      usageRecord({ customerId: a.record.customerId, keyId: a.record.id, requestId: 'req_t2', at: NOW, costNanoUsd: 0.9e9 }),
    ]);
    const near = (await usage.spendOverview(queryAt())).budgetsNearEnd;
    t.same(near.map((x) => [x.keyName, x.spentNanoUsd]), [[null, 9_900_000_000n], ['a', 900_000_000n], ['b', usd(9)]]);
  });

  t.test('the recent requests and errors are those from the moment asked for on', async (t) => {
    const { usage } = await open(t);
    const since = NOW - HOUR;
    await usage.insertBatch([
      usageRecord({ requestId: 'req_r1', at: since - 1 }),
      usageRecord({ requestId: 'req_r2', at: since }),
      usageRecord({ requestId: 'req_r3', at: since + 10, status: 429 }),
      usageRecord({ requestId: 'req_r4', at: NOW, status: 502 }),
      usageRecord({ requestId: 'req_r5', at: NOW, status: 399 }),
    ]);
    // The hour may span two days and two months: the last hour of February and the first minutes of March.
    await usage.insertBatch([usageRecord({ requestId: 'req_r6', at: Date.parse('2030-02-28T23:30:00Z'), status: 500 }), usageRecord({ requestId: 'req_r7', at: Date.parse('2030-03-01T00:10:00Z') })]);
    t.same((await usage.spendOverview(queryAt())).recent, { requests: 4, errors: 2 });
    t.same((await usage.spendOverview(queryAt({ recentSinceMs: Date.parse('2030-02-28T23:20:00Z') }))).recent, { requests: 7, errors: 3 });
    t.same((await usage.spendOverview(queryAt({ recentSinceMs: NOW + 1 }))).recent, { requests: 0, errors: 0 });
  });

  t.test('a query that is not well formed is refused before it reaches the database', async (t) => {
    const { usage } = await open(t);
    await t.rejects(usage.spendOverview(queryAt({ period: { since: "2030-03-01' OR 1=1", until: '2030-03-31' } })), UsageQueryError);
    await t.rejects(usage.spendOverview(queryAt({ budgetWindows: { day: { since: '2030-02-30', until: '2030-02-30' }, month: queryAt().budgetWindows.month } })), UsageQueryError);
    await t.rejects(usage.spendOverview(queryAt({ top: 0 })), UsageQueryError);
    await t.rejects(usage.spendOverview(queryAt({ budgetPercent: 0.5 })), UsageQueryError);
  });
}
