// What every UsageStore must do. Each implementation's test file runs this suite with a factory that
// hands each test an empty usage store and a key store on the same data (reports name customers).
import type { Test } from 'tap';
import type { KeyStore } from '../../src/keys/key-store.js';
import { emptyTotals, UsageQueryError, type UsageQuery, type UsageRecord, type UsageStore, type UsageTotals } from '../../src/metering/usage-store.js';
import { usageRecord } from '../unit/metering/fixtures/usage-record.js';

export interface UsageStoreFixture {
  usage: UsageStore;
  keys: KeyStore;
}

export interface UsageContractOptions {
  /** Whether a batch written again (a retry) is stored and counted once. */
  idempotentRetries: boolean;
}

export type UsageStoreFactory = (t: Test) => Promise<UsageStoreFixture>;

const ZERO: UsageTotals = emptyTotals();

/** The totals a query must report, summed here from the records themselves. */
function expectedTotals(rows: readonly UsageRecord[], q: UsageQuery): UsageTotals {
  const sum = { ...ZERO };
  for (const r of rows) {
    const day = new Date(r.at).toISOString().slice(0, 10);
    if (q.customerId !== undefined && r.customerId !== q.customerId) continue;
    if (q.keyId !== undefined && r.keyId !== q.keyId) continue;
    if (q.model !== undefined && r.model !== q.model) continue;
    if ((q.since !== undefined && day < q.since) || (q.until !== undefined && day > q.until)) continue;
    sum.requests++;
    if (r.status >= 400) sum.errors++;
    sum.inputTokens += r.inputTokens;
    sum.outputTokens += r.outputTokens;
    sum.cacheReadTokens += r.cacheReadTokens;
    sum.cacheWriteTokens += r.cacheWriteTokens;
    sum.costNanoUsd += BigInt(r.costNanoUsd);
  }
  return sum;
}

/** Rows without a provider sort first (both stores put '' before any id). */
function byProviderFirstNull(a: unknown[], b: unknown[]): number {
  return String(a[1] ?? '').localeCompare(String(b[1] ?? ''));
}

/** A fixed pseudo-random stream, so a failure is the same on every run. */
function seeded(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
}

export function usageStoreContract(t: Test, open: UsageStoreFactory, opts: UsageContractOptions): void {
  t.test('records of every model surface are stored, the Responses surface included', async (t) => {
    const { usage: store, keys } = await open(t);
    const k = await keys.createKey({ customerName: 'gamma' });
    const at = Date.parse('2030-04-01T10:00:00Z');
    const surfaces = ['messages', 'chat', 'responses'] as const;
    await store.insertBatch(surfaces.map((surface, i) => usageRecord({ customerId: k.record.customerId, keyId: k.record.id, requestId: `req_s${i}`, at, surface })));
    t.equal((await store.totals({ customerId: k.record.customerId })).requests, surfaces.length);
  });

  t.test('records are grouped by day, customer and model and filtered by customer, key, model and day', async (t) => {
    const { usage: store, keys } = await open(t);
    const a = await keys.createKey({ customerName: 'acme' });
    const a2 = await keys.createKey({ customerName: 'acme' });
    const b = await keys.createKey({ customerName: 'beta' });
    const of = (k: typeof a) => ({ customerId: k.record.customerId, keyId: k.record.id });
    const day1 = Date.parse('2030-03-01T23:59:59Z');
    const day2 = Date.parse('2030-03-02T00:00:00Z');
    await store.insertBatch([
      usageRecord({ ...of(a), requestId: 'req_1', at: day1 }),
      usageRecord({ ...of(a2), requestId: 'req_2', at: day1, status: 429, inputTokens: 0, outputTokens: 0 }),
      usageRecord({ ...of(a), requestId: 'req_3', at: day2, model: 'claude-opus-4-7' }),
      usageRecord({ ...of(b), requestId: 'req_4', at: day2, surface: 'chat' }),
      usageRecord({ requestId: 'req_5', at: day2, status: 401, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }),
    ]);

    const all = await store.query();
    t.same(
      all.map((r) => [r.day, r.customerName, r.model, r.requests, r.errors, r.inputTokens]),
      [
        ['2030-03-02', null, 'claude-haiku-4-5-20251001', 1, 1, 0],
        ['2030-03-02', 'acme', 'claude-opus-4-7', 1, 0, 10],
        ['2030-03-02', 'beta', 'claude-haiku-4-5-20251001', 1, 0, 10],
        ['2030-03-01', 'acme', 'claude-haiku-4-5-20251001', 2, 1, 10],
      ],
    );
    t.same(all[0].customerId, null);
    t.match(all[3], { customerId: a.record.customerId, outputTokens: 20, cacheReadTokens: 6, cacheWriteTokens: 8 });

    const count = async (q: UsageQuery) => (await store.totals(q)).requests;
    t.equal(await count({}), 5);
    t.equal(await count({ customerId: a.record.customerId }), 3);
    t.equal(await count({ keyId: a2.record.id }), 1);
    t.equal(await count({ model: 'claude-opus-4-7' }), 1);
    t.equal(await count({ since: '2030-03-02' }), 3);
    t.equal(await count({ until: '2030-03-01' }), 2);
    t.equal(await count({ since: '2030-03-02', until: '2030-03-02', customerId: a.record.customerId }), 1);
    t.same(await store.totals({ customerId: 'nobody' }), ZERO);
    t.same(await store.totals({ customerId: a.record.customerId }), {
      requests: 3,
      errors: 1,
      inputTokens: 20,
      outputTokens: 40,
      cacheReadTokens: 9,
      cacheWriteTokens: 12,
      costNanoUsd: 3n * 115_300n,
    });
    t.same(await store.query({ model: 'no-such-model' }), []);
  });

  t.test('days that are not dates are refused, never spliced into a query', async (t) => {
    const { usage: store } = await open(t);
    await t.rejects(store.query({ since: '01/03/2030' }), UsageQueryError);
    await t.rejects(store.totals({ until: "2030-03-01' OR 1=1" }), UsageQueryError);
    await t.rejects(store.totals({ since: '2025-02-30' }), UsageQueryError);
    t.same(await store.totals({ customerId: "x' OR '1'='1" }), ZERO, 'a filter value is a value');
    await store.insertBatch([]);
    t.same(await store.totals(), ZERO, 'an empty batch stores nothing');
  });

  t.test('reports always equal the records summed, batch after batch, across days and months', async (t) => {
    const { usage: store } = await open(t);
    const next = seeded(7);
    const pick = <T>(items: readonly T[]) => items[next(items.length)] as T;
    const start = Date.parse('2030-03-31T20:00:00Z');
    const written: UsageRecord[] = [];
    for (let batch = 0; batch < 8; batch++) {
      const rows = Array.from({ length: 1 + next(60) }, (_, i) =>
        usageRecord({
          at: start + next(10 * 3_600_000),
          requestId: `req_${batch}_${i}`,
          customerId: pick(['cus_a', 'cus_b', null]),
          keyId: pick(['key_1', 'key_2', null]),
          model: pick(['m-one', 'm-two']),
          status: pick([200, 200, 429, 500]),
          inputTokens: next(1000),
          outputTokens: next(1000),
          cacheReadTokens: next(50),
          cacheWriteTokens: next(50),
          costNanoUsd: next(10_000_000),
        }),
      );
      await store.insertBatch(rows);
      written.push(...rows);
    }
    const queries: UsageQuery[] = [
      {},
      { customerId: 'cus_a' },
      { keyId: 'key_2' },
      { model: 'm-two' },
      { since: '2030-04-01' },
      { until: '2030-03-31' },
      { customerId: 'cus_b', since: '2030-04-01', model: 'm-one' },
    ];
    for (const q of queries) t.same(await store.totals(q), expectedTotals(written, q), JSON.stringify(q));
    const grouped = await store.query();
    t.equal(grouped.reduce((n, r) => n + r.requests, 0), written.length, 'the groups add up to every record');
    t.same([...new Set(grouped.map((r) => r.day))], ['2030-04-01', '2030-03-31'], 'newest day first');
  });

  t.test('cost is stored per request and summed exactly, past 2^53 nano-dollars', async (t) => {
    const { usage: store } = await open(t);
    // Three requests of ~$4 million each: the sum passes 2^53 (~9.007e15), where a double drops units.
    const big = 4_000_000_000_000_001;
    await store.insertBatch([
      usageRecord({ requestId: 'req_big_1', customerId: 'cus_a', costNanoUsd: big }),
      usageRecord({ requestId: 'req_big_2', customerId: 'cus_a', costNanoUsd: big, status: 500 }),
    ]);
    await store.insertBatch([usageRecord({ requestId: 'req_big_3', customerId: 'cus_a', costNanoUsd: big })]);
    await store.insertBatch([usageRecord({ requestId: 'req_free', customerId: 'cus_b', costNanoUsd: 0, model: 'unpriced-model' })]);
    const exact = 3n * BigInt(big);
    t.equal((await store.totals({ customerId: 'cus_a' })).costNanoUsd, exact, 'the rollup and the totals add cost in integers');
    t.equal(typeof (await store.totals()).costNanoUsd, 'bigint');
    t.same(
      (await store.query()).map((r) => [r.customerId, r.model, r.costNanoUsd]),
      [
        ['cus_a', 'claude-haiku-4-5-20251001', exact],
        ['cus_b', 'unpriced-model', 0n],
      ],
    );
    t.equal((await store.totals({ customerId: 'nobody' })).costNanoUsd, 0n);
  });

  t.test('every row names the provider that served it: one model over two accounts is two rows', async (t) => {
    const { usage: store } = await open(t);
    const at = Date.parse('2030-05-01T10:00:00Z');
    await store.insertBatch([
      usageRecord({ requestId: 'req_p1', customerId: 'cus_a', at, provider: 'account-b', inputTokens: 5 }),
      usageRecord({ requestId: 'req_p2', customerId: 'cus_a', at, provider: 'account-a', inputTokens: 7 }),
      usageRecord({ requestId: 'req_p3', customerId: 'cus_a', at, provider: 'account-a', inputTokens: 11 }),
      // Refused before any provider was asked.
      usageRecord({ requestId: 'req_p4', customerId: 'cus_a', at, provider: null, status: 429, inputTokens: 0 }),
    ]);
    // The rollup adds a later batch to the provider's own row.
    await store.insertBatch([usageRecord({ requestId: 'req_p5', customerId: 'cus_a', at, provider: 'account-b', inputTokens: 13 })]);
    t.same(
      (await store.query({ customerId: 'cus_a' })).map((r) => [r.model, r.provider, r.requests, r.errors, r.inputTokens]),
      [
        ['claude-haiku-4-5-20251001', null, 1, 1, 0],
        ['claude-haiku-4-5-20251001', 'account-a', 2, 0, 18],
        ['claude-haiku-4-5-20251001', 'account-b', 2, 0, 18],
      ].sort(byProviderFirstNull),
      'grouped by provider within day, customer and model',
    );
    t.equal((await store.totals({ customerId: 'cus_a' })).requests, 5, 'the totals count every provider');
  });

  t.test('1-hour cache writes and web searches are summed per row, as the invoice export shows them', async (t) => {
    const { usage: store } = await open(t);
    const at = Date.parse('2030-06-01T10:00:00Z');
    await store.insertBatch([
      usageRecord({ requestId: 'req_i1', customerId: 'cus_i', at, cacheWriteTokens: 3000, cacheWrite1hTokens: 1000, webSearches: 2 }),
      usageRecord({ requestId: 'req_i2', customerId: 'cus_i', at, cacheWriteTokens: 500, cacheWrite1hTokens: 500 }),
      // A record from before these were recorded (a spill file written by an older build): counted as 0.
      usageRecord({ requestId: 'req_i3', customerId: 'cus_i', at, cacheWriteTokens: 7 }),
    ]);
    await store.insertBatch([usageRecord({ requestId: 'req_i4', customerId: 'cus_i', at, webSearches: 5 })]);
    const rows = await store.query({ customerId: 'cus_i' });
    t.same(rows.map((r) => [r.requests, r.cacheWriteTokens, r.cacheWrite1hTokens, r.webSearches]), [[4, 3511, 1500, 7]]);
  });

  t.test('a batch written again is stored and counted once', { skip: !opts.idempotentRetries && 'this store does not deduplicate request ids yet' }, async (t) => {
    const { usage: store } = await open(t);
    const batch = [
      usageRecord({ requestId: 'req_a', customerId: 'cus_a' }),
      usageRecord({ requestId: 'req_b', customerId: 'cus_a', status: 500 }),
    ];
    await store.insertBatch(batch);
    await store.insertBatch(batch);
    const retried = [...batch, usageRecord({ requestId: 'req_c', customerId: 'cus_a' }), usageRecord({ requestId: 'req_c', customerId: 'cus_a' })];
    await store.insertBatch(retried);
    t.same(await store.totals({ customerId: 'cus_a' }), expectedTotals(retried.slice(0, 3), {}), 'req_a and req_b once, req_c once');
    t.same((await store.query()).map((r) => r.requests), [3]);
  });
}
