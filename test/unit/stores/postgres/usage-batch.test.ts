// A usage batch prepared for PostgreSQL alone: one record per request id and day (the first one kept),
// records and rollup increments in primary-key order (so two instances lock rows in the same order and
// cannot deadlock), and the months a batch touches.
import t from 'tap';
import { monthsOf, orderedIncrements, orderedUniqueRecords, usageRowKey } from '../../../../src/stores/postgres/usage-batch.js';
import type { UsageRecord } from '../../../../src/metering/usage-store.js';
import { dailyIncrements } from '../../../../src/metering/daily-rollup.js';

const DAY = 86_400_000;
const NOV_30 = Date.UTC(2026, 10, 30, 23);
const record = (requestId: string, at: number, extra: Partial<UsageRecord> = {}): UsageRecord => ({
  at, requestId, customerId: 'c', keyId: 'k', model: 'm', provider: null, surface: 'messages', inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costNanoUsd: 0, status: 200, durationMs: 1, outcome: 'ok', ...extra,
});

t.test('one record per request id and day, the first kept, ordered by day then request id', async (t) => {
  const rows = [record('b', NOV_30 + DAY), record('b', NOV_30, { inputTokens: 7 }), record('a', NOV_30 + DAY), record('b', NOV_30, { inputTokens: 9 }), record('c', NOV_30)];
  const out = orderedUniqueRecords(rows).map(({ record: r, day }) => `${day} ${r.requestId} ${r.inputTokens}`);
  t.same(out, ['2026-11-30 b 7', '2026-11-30 c 1', '2026-12-01 a 1', '2026-12-01 b 1']);
  t.equal(usageRowKey('b', '2026-11-30'), '2026-11-30\nb');
  t.same(orderedUniqueRecords([]), []);
});

t.test('rollup increments in the order of their primary key, whatever order the batch came in', async (t) => {
  const rows = [
    record('1', NOV_30 + DAY, { customerId: 'a' }),
    record('2', NOV_30, { customerId: 'b', model: 'z' }),
    record('3', NOV_30, { customerId: 'b', model: 'y', provider: 'p2' }),
    record('4', NOV_30, { customerId: 'b', model: 'y', provider: 'p1' }),
    record('5', NOV_30, { customerId: 'a', keyId: 'k2' }),
  ];
  const order = (r: readonly UsageRecord[]) => orderedIncrements(dailyIncrements(r)).map((i) => [i.day, i.customerId, i.keyId, i.model, i.provider].join('/'));
  const expected = ['2026-11-30/a/k2/m/', '2026-11-30/b/k/y/p1', '2026-11-30/b/k/y/p2', '2026-11-30/b/k/z/', '2026-12-01/a/k/m/'];
  t.same(order(rows), expected);
  t.same(order([...rows].reverse()), expected, 'the same order from the reverse batch');
});

t.test('the months of a batch\'s days, each once', async (t) => {
  t.same(monthsOf(['2026-11-30', '2026-12-01', '2026-11-02']), ['2026-11-01', '2026-12-01']);
  t.same(monthsOf([]), []);
});
