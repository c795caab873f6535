// A batch of usage rows crosses to the write thread as columns and comes back as the rows it was:
// nulls, repeated and unique strings, every number as it was (nano-dollars up to 2^53 included), absent
// counts as the 0 the store reads them as, `estimated` only where it was true.
import t from 'tap';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { decodeUsageBatch, encodeUsageBatch } from '../../../../src/stores/sqlite/usage-handover.js';
import type { UsageRecord } from '../../../../src/metering/usage-store.js';

const count = fc.nat();
const record: fc.Arbitrary<UsageRecord> = fc.record(
  {
    at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    requestId: fc.string({ minLength: 1 }),
    customerId: fc.option(fc.constantFrom('cus_a', 'cus_b', 'ü-customer'), { nil: null }),
    keyId: fc.option(fc.constantFrom('key_1', 'key_2'), { nil: null }),
    model: fc.constantFrom('claude-sonnet-4-6', 'claude-haiku-4-5', ''),
    provider: fc.option(fc.constantFrom('anthropic', 'bedrock-us'), { nil: null }),
    surface: fc.constantFrom('messages' as const, 'chat' as const, 'responses' as const),
    inputTokens: count,
    outputTokens: count,
    cacheReadTokens: count,
    cacheWriteTokens: count,
    costNanoUsd: fc.maxSafeNat(),
    status: fc.integer({ min: 100, max: 599 }),
    durationMs: fc.nat(),
    outcome: fc.constantFrom('ok', 'client_cancelled', 'upstream_error'),
    cacheWrite1hTokens: count,
    webSearches: count,
    estimated: fc.boolean(),
  },
  { requiredKeys: ['at', 'requestId', 'customerId', 'keyId', 'model', 'provider', 'surface', 'inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'costNanoUsd', 'status', 'durationMs', 'outcome'] },
);

/** What the store reads from a row: absent counts are 0, `estimated` only when true. */
function asStored(r: UsageRecord): UsageRecord {
  const { estimated, ...rest } = r;
  return { ...rest, cacheWrite1hTokens: r.cacheWrite1hTokens ?? 0, webSearches: r.webSearches ?? 0, ...(estimated === true ? { estimated: true } : {}) };
}

t.test('property: rows come back as the store reads them, after the clone postMessage makes', async () => {
  fc.assert(
    fc.property(fc.array(record, { maxLength: 40 }), (rows) => {
      const back = decodeUsageBatch(deserialize(serialize(encodeUsageBatch(rows))) as ReturnType<typeof encodeUsageBatch>);
      const want = rows.map(asStored);
      if (!isDeepStrictEqual(back, want)) throw new Error(`${JSON.stringify(back)}\n---\n${JSON.stringify(want)}`);
    }),
    { numRuns: 300 },
  );
});

t.test('a repeated string goes once per batch', async (t) => {
  const row = (i: number): UsageRecord => ({ at: i, requestId: `req_${i}`, customerId: 'cus_a', keyId: 'key_1', model: 'm', provider: null, surface: 'chat', inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, costNanoUsd: 5, status: 200, durationMs: 3, outcome: 'ok' });
  const batch = encodeUsageBatch(Array.from({ length: 100 }, (_, i) => row(i)));
  t.same(batch.texts, ['cus_a', 'key_1', 'm', 'chat', 'ok']);
  t.equal(batch.requestIds.length, 100);
  t.equal(decodeUsageBatch(batch)[99]!.requestId, 'req_99');
});
