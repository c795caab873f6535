import t from 'tap';
import { emptyUsage, mergeProviderUsage, totalInput } from '../../../src/metering/token-usage.js';

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
