// An answer's raw header list: one name looked up alone, and several looked up in one pass, agree on
// every list (names in any letter case, repeated, of equal lengths, absent).
import t from 'tap';
import fc from 'fast-check';
import { HeaderNames, rawHeader } from '../../../../src/lib/http/raw-headers.js';

const raw = (pairs: Array<[string, string]>) => pairs.flatMap(([n, v]) => [Buffer.from(n, 'latin1'), Buffer.from(v, 'latin1')]);

t.test('valuesIn, table-driven', async (t) => {
  const names = new HeaderNames(['anthropic-ratelimit-requests-remaining', 'anthropic-ratelimit-input-tokens-reset', 'request-id', 'x-should-retry']);
  const cases: Array<[string, Array<[string, string]>, unknown[]]> = [
    ['none of them', [['content-type', 'application/json']], [undefined, undefined, undefined, undefined]],
    [
      'two names of one length told apart, in the order asked',
      [['anthropic-ratelimit-input-tokens-reset', 'r'], ['anthropic-ratelimit-input-tokens-limit', 'l'], ['anthropic-ratelimit-requests-remaining', '7']],
      ['7', 'r', undefined, undefined],
    ],
    ['any letter case', [['Request-ID', 'req_1'], ['X-SHOULD-RETRY', 'true']], [undefined, undefined, 'req_1', 'true']],
    ['a repeated header is a list, in its order', [['x-should-retry', 'a'], ['request-id', 'r'], ['X-Should-Retry', 'b'], ['x-should-retry', 'c']], [undefined, undefined, 'r', ['a', 'b', 'c']]],
    ['latin-1 values kept as they came', [['request-id', 'caf\u00e9']], [undefined, undefined, 'caf\u00e9', undefined]],
  ];
  for (const [name, pairs, want] of cases) t.same(names.valuesIn(raw(pairs)), want, name);
});

t.test('property: valuesIn gives what rawHeader gives for each name', async () => {
  const pool = ['request-id', 'Request-Id', 'x-should-retry', 'retry-after', 'retry-after-ms', 'content-type', 'a', 'A', 'b', 'ab', 'ba'];
  const asked = ['request-id', 'x-should-retry', 'retry-after', 'retry-after-ms', 'a', 'ab'];
  const names = new HeaderNames(asked);
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...pool), fc.string({ maxLength: 3 })), { maxLength: 12 }), (pairs) => {
      const list = raw(pairs);
      const one = asked.map((n) => rawHeader(list, n));
      if (JSON.stringify(names.valuesIn(list)) !== JSON.stringify(one)) throw new Error(`${JSON.stringify(pairs)}: ${JSON.stringify(names.valuesIn(list))} / ${JSON.stringify(one)}`);
    }),
    { numRuns: 500 },
  );
});
