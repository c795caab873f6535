import t from 'tap';
import { daysBetween, summariseUsage } from '../../../../src/admin/api/usage-summary.js';
import type { UsageRow } from '../../../../src/metering/usage-store.js';

function row(day: string, model: string, requests: number, inputTokens: number, provider: string | null = 'anthropic'): UsageRow {
  return { day, model, provider, customerId: 'c', customerName: 'acme', requests, errors: 0, inputTokens, outputTokens: 2 * requests, cacheReadTokens: 1, cacheWriteTokens: 0, cacheWrite1hTokens: 0, webSearches: 0, costNanoUsd: BigInt(inputTokens) * 1_000n };
}

t.test('days between, both ends included, across a month end', async (t) => {
  t.same(daysBetween('2025-02-27', '2025-03-02'), ['2025-02-27', '2025-02-28', '2025-03-01', '2025-03-02']);
  t.same(daysBetween('2025-01-01', '2025-01-01'), ['2025-01-01']);
  t.same(daysBetween('2025-01-02', '2025-01-01'), []);
});

t.test('rows sorted, every day present, per-model and overall totals', async (t) => {
  const s = summariseUsage([row('2025-01-03', 'm-b', 1, 10), row('2025-01-01', 'm-b', 2, 20), row('2025-01-01', 'm-a', 3, 30)], '2025-01-01', '2025-01-03');
  t.same(
    s.rows.map((r) => [r.day, r.model, r.requests]),
    [
      ['2025-01-01', 'm-a', 3],
      ['2025-01-01', 'm-b', 2],
      ['2025-01-03', 'm-b', 1],
    ],
  );
  t.same(s.byDay.map((d) => [d.day, d.requests, d.inputTokens]), [
    ['2025-01-01', 5, 50],
    ['2025-01-02', 0, 0],
    ['2025-01-03', 1, 10],
  ]);
  t.same(s.byModel.map((m) => [m.model, m.requests]), [
    ['m-a', 3],
    ['m-b', 3],
  ]);
  t.same(s.totals, { requests: 6, errors: 0, inputTokens: 60, outputTokens: 12, cacheReadTokens: 3, cacheWriteTokens: 0, costUsd: '0.00006' });
});

t.test('rows repeating a day and model are merged', async (t) => {
  const s = summariseUsage([row('2025-01-01', 'm', 1, 1), row('2025-01-01', 'm', 1, 1)], '2025-01-01', '2025-01-01');
  t.equal(s.rows.length, 1);
  t.equal(s.rows[0].requests, 2);
});

t.test('cost goes out as an exact USD decimal string, summed in integers past 2^53 nano-dollars', async (t) => {
  const big = (day: string, model: string): UsageRow => ({ ...row(day, model, 1, 0), costNanoUsd: 9_007_199_254_740_993n });
  const s = summariseUsage([big('2025-01-01', 'm-a'), big('2025-01-01', 'm-b'), big('2025-01-02', 'm-a')], '2025-01-01', '2025-01-02');
  t.equal(s.totals.costUsd, '27021597.764222979');
  t.same(s.byDay.map((d) => [d.day, d.costUsd]), [['2025-01-01', '18014398.509481986'], ['2025-01-02', '9007199.254740993']]);
  t.same(s.byModel.map((m) => [m.model, m.costUsd]), [['m-a', '18014398.509481986'], ['m-b', '9007199.254740993']]);
  t.notOk('costNanoUsd' in s.totals, 'no BigInt reaches the JSON body');
  t.doesNotThrow(() => JSON.stringify(s));
});

t.test('totals per provider: which account or cloud served what', async (t) => {
  const s = summariseUsage([row('2025-01-01', 'm', 2, 10, 'b'), row('2025-01-01', 'm', 1, 5, 'a'), row('2025-01-02', 'm', 3, 1, 'b'), row('2025-01-02', 'm', 1, 0, null)], '2025-01-01', '2025-01-02');
  t.same(s.byProvider.map((p) => [p.provider, p.requests, p.inputTokens]), [[null, 1, 0], ['a', 1, 5], ['b', 5, 11]]);
  t.equal(s.rows.length, 2, 'rows stay one per day and model');
});
