import t from 'tap';
import { formatUsd, formatUsdPerMillion, requestCost } from '../../../src/metering/cost.js';
import type { ModelPrices } from '../../../src/metering/prices.js';
import type { TokenUsage } from '../../../src/metering/token-usage.js';

const sonnet: ModelPrices = { input: 3000, output: 15000, cacheWrite: 3750, cacheRead: 300 };
const tenCents: ModelPrices = { input: 100, output: 100, cacheWrite: 100, cacheRead: 100 };
const usage = (input: number, output: number, cacheWrite = 0, cacheRead = 0): TokenUsage => ({ input, output, cacheWrite, cacheRead });

t.test('tokens × prices, each kind at its own price, in integer nano-dollars', async (t) => {
  const cases: Array<[string, TokenUsage, ModelPrices, number]> = [
    ['nothing reported', usage(0, 0), sonnet, 0],
    ['one token at $0.10 per million', usage(1, 0), tenCents, 100],
    ['input only', usage(1_000_000, 0), sonnet, 3_000_000_000],
    ['output only', usage(0, 1), sonnet, 15_000],
    ['cache write at its rate', usage(0, 0, 1000, 0), sonnet, 3_750_000],
    ['cache read at its rate', usage(0, 0, 0, 1000), sonnet, 300_000],
    ['all four', usage(82, 17, 4, 3), sonnet, 82 * 3000 + 17 * 15000 + 4 * 3750 + 3 * 300],
    // 0.1 + 0.2 style sums would drift in floating-point dollars; integers do not.
    ['many small amounts', usage(3, 3, 3, 3), tenCents, 1200],
  ];
  for (const [name, u, p, nano] of cases) t.same(requestCost(u, p), { nanoUsd: nano, priced: true }, name);
});

t.test('a model without prices costs zero and says so', async (t) => {
  t.same(requestCost(usage(1000, 1000), null), { nanoUsd: 0, priced: false });
});

t.test('malformed counts never throw: fractions truncated, negatives zero, huge ones saturate', async (t) => {
  t.same(requestCost(usage(1.7, 0), sonnet), { nanoUsd: 3000, priced: true });
  t.same(requestCost(usage(-5, 2), sonnet), { nanoUsd: 30_000, priced: true });
  t.same(requestCost(usage(1e300, 0), sonnet), { nanoUsd: Number.MAX_SAFE_INTEGER, priced: true });
  // Past 2^53 in the double sum but each count safe: computed in BigInt, then saturated.
  t.same(requestCost(usage(2 ** 50, 2 ** 50), sonnet), { nanoUsd: Number.MAX_SAFE_INTEGER, priced: true });
});

t.test('formatUsd: exact decimal strings, at least cents', async (t) => {
  const cases: Array<[bigint | number, string]> = [
    [0, '0.00'],
    [0n, '0.00'],
    [1, '0.000000001'],
    [1500, '0.0000015'],
    [10_000_000, '0.01'],
    [6_250_000_000n, '6.25'],
    [3_000_000_000, '3.00'],
    [123_456_789_012, '123.456789012'],
    [9_007_199_254_740_993n, '9007199.254740993'],
    [12_345_678_901_234_567_890_123n, '12345678901234.567890123'],
    [-2_500_000_000n, '-2.50'],
  ];
  for (const [nano, text] of cases) t.equal(formatUsd(nano), text, String(nano));
});

t.test('formatUsdPerMillion: a price back as the models file writes it', async (t) => {
  const cases: Array<[number, string]> = [
    [3750, '3.75'],
    [3000, '3'],
    [300, '0.3'],
    [1, '0.001'],
    [0, '0'],
  ];
  for (const [nano, text] of cases) t.equal(formatUsdPerMillion(nano), text, String(nano));
});

t.test('1-hour cache writes at their own price (2x input unless set) and web searches per use', async (t) => {
  const base: ModelPrices = { input: 3000, output: 15_000, cacheWrite: 3750, cacheRead: 300 };
  const listed: ModelPrices = { ...base, cacheWrite1h: 6000, webSearch: 10_000_000 };
  const cases: Array<[string, TokenUsage, ModelPrices, number]> = [
    ['5-minute writes only', { input: 0, output: 0, cacheRead: 0, cacheWrite: 1000 }, listed, 1000 * 3750],
    ['of 1000 writes, 400 for 1 hour', { input: 0, output: 0, cacheRead: 0, cacheWrite: 1000, cacheWrite1h: 400 }, listed, 600 * 3750 + 400 * 6000],
    ['1-hour price absent: twice input', { input: 0, output: 0, cacheRead: 0, cacheWrite: 1000, cacheWrite1h: 1000 }, base, 1000 * 6000],
    ['1-hour count above the writes: capped at them', { input: 0, output: 0, cacheRead: 0, cacheWrite: 10, cacheWrite1h: 50 }, listed, 10 * 6000],
    ['three web searches at $10 per 1,000', { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, webSearches: 3 }, listed, 100 * 3000 + 10 * 15_000 + 3 * 10_000_000],
    ['web search without a price: 0', { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, webSearches: 3 }, base, 0],
  ];
  for (const [name, usage, prices, want] of cases) t.equal(requestCost(usage, prices).nanoUsd, want, name);
});
