import t from 'tap';
import fc from 'fast-check';
import { emptyUsage, mergeProviderUsage, totalInput, usageOf, usageOfCommonText } from '../../../src/metering/token-usage.js';

t.test('cumulative provider usage replaces earlier counts and ignores absent or null fields', async (t) => {
  const u = emptyUsage();
  mergeProviderUsage(u, { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 5, cache_creation_input_tokens: null });
  mergeProviderUsage(u, { output_tokens: 42 });
  t.same(u, { input: 10, output: 42, cacheRead: 5, cacheWrite: 0 });
  t.equal(totalInput({ input: 10, output: 1, cacheRead: 5, cacheWrite: 7 }), 22);
});

t.test('a count that is not a finite number (1e999 parses to Infinity) is not taken', async (t) => {
  const u = emptyUsage();
  mergeProviderUsage(u, { input_tokens: 7, output_tokens: 3 });
  mergeProviderUsage(u, JSON.parse('{"input_tokens":1e999,"output_tokens":-1e999,"cache_read_input_tokens":"5"}') as Record<string, number>);
  t.same(u, { input: 7, output: 3, cacheRead: 0, cacheWrite: 0 });
});

t.test('the common usage shape is read as usageOf(JSON.parse) reads it; any other text is left to the parse', async (t) => {
  const count = fc.oneof({ arbitrary: fc.nat({ max: 100_000 }), weight: 20 }, fc.constant(999_999_999_999_999), fc.constant(1_000_000_000_000_000));
  const extra = fc.tuple(
    fc.oneof(
      { arbitrary: fc.constantFrom('service_tier', 'inference_geo', 'server_tool_use'), weight: 6 },
      fc.constantFrom('output_tokens', 'input_tokens', 'cache_read_input_tokens', 'output_tokens_details'),
      fc.stringMatching(/^[a-z_]{1,8}$/),
    ),
    fc.oneof(
      { arbitrary: fc.constantFrom('standard', 'us', 'eu-west.1', ''), weight: 6 },
      count,
      fc.constant(null),
      fc.boolean(),
      fc.constantFrom('not a "plain" value', { thinking_tokens: 3 }),
    ),
  );
  const usage = fc.record({
    input: count,
    cacheWrite: fc.option(count),
    cacheRead: fc.option(count),
    fiveMinutes: count,
    hour: count,
    output: count,
    extras: fc.array(extra, { maxLength: 2 }),
  });
  type Generated = typeof usage extends fc.Arbitrary<infer R> ? R : never;
  const textOf = (u: Generated) =>
    `{"input_tokens":${u.input},"cache_creation_input_tokens":${u.cacheWrite},"cache_read_input_tokens":${u.cacheRead},"cache_creation":{"ephemeral_5m_input_tokens":${u.fiveMinutes},"ephemeral_1h_input_tokens":${u.hour}},"output_tokens":${u.output}${u.extras.map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join('')}}`;
  let read = 0;
  fc.assert(
    fc.property(usage, (u) => {
      const text = textOf(u);
      const common = usageOfCommonText(text);
      if (common === undefined) return true;
      read++;
      return JSON.stringify(common) === JSON.stringify(usageOf(JSON.parse(text)));
    }),
    { numRuns: 3000 },
  );
  t.ok(read > 1000, `most generated texts are read without a parse (${read})`);
  // Anything else is left to the parse, including what JSON.parse itself would refuse.
  const recorded =
    '{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":12,"service_tier":"standard"}';
  t.same(usageOfCommonText(recorded), { input: 10, output: 12, cacheRead: 0, cacheWrite: 0 });
  for (const other of [
    recorded.replace('"service_tier"', '"output_tokens":99,"service_tier"'),
    recorded.replace('}', ',"output_tokens_details":{"thinking_tokens":2}}').replace(/}}$/, '}'),
    recorded.replace('"output_tokens":12', '"output_tokens":012'),
    recorded.replace('"output_tokens":12', '"output_tokens":1.5'),
    recorded.replace('"output_tokens":12', '"output_tokens":1e999'),
    recorded.replace('"input_tokens":10', '"input_tokens":1234567890123456'),
    recorded.replace(/}$/, ' }'),
    recorded.replace(/}$/, ',}'),
    recorded.replace('"standard"', '"stan\\"dard"'),
    JSON.stringify(JSON.parse(recorded), null, 1),
    '{}',
    '',
  ]) {
    t.equal(usageOfCommonText(other), undefined, other.slice(0, 60));
  }
});

t.test('1-hour cache writes and web searches are read from the usage object, streamed or whole', async (t) => {
  const text =
    '{"input_tokens":10,"cache_creation_input_tokens":500,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":200,"ephemeral_1h_input_tokens":300},"output_tokens":7,"service_tier":"standard"}';
  t.same(usageOfCommonText(text), { input: 10, output: 7, cacheRead: 0, cacheWrite: 500, cacheWrite1h: 300 }, 'the common shape, by the expression');
  t.same(usageOf(JSON.parse(text)), usageOfCommonText(text), 'the same by the parse');
  const withSearch = { input_tokens: 10, output_tokens: 7, server_tool_use: { web_search_requests: 2 } };
  t.same(usageOf(withSearch), { input: 10, output: 7, cacheRead: 0, cacheWrite: 0, webSearches: 2 });
  t.equal(usageOfCommonText(JSON.stringify({ ...JSON.parse(text), server_tool_use: { web_search_requests: 2 } })), undefined, 'server_tool_use is left to the parse');
});
