import t from 'tap';
import { parseModelPrices, parseUsdPerMillion, PriceError } from '../../../src/metering/prices.js';
import { LIST_PRICES } from '../../../src/metering/list-prices.js';
import { DEFAULT_MODELS } from '../../../src/catalog/model.js';

t.test('USD per million tokens → integer nano-dollars per token, by the digits', async (t) => {
  const cases: Array<[unknown, number]> = [
    ['3', 3000],
    ['3.75', 3750],
    ['0.30', 300],
    ['0.1', 100],
    ['0.001', 1],
    ['18.75', 18750],
    ['0', 0],
    [' 6.25 ', 6250],
    [0.1, 100],
    [0.3, 300],
    [3.75, 3750],
    [1.005, 1005],
    [15, 15000],
    ['1000000', 1_000_000_000],
  ];
  for (const [input, nano] of cases) t.equal(parseUsdPerMillion(input, 'p'), nano, JSON.stringify(input));
});

t.test('what cannot be held exactly, or is not a price, is refused with the place named', async (t) => {
  const bad: unknown[] = ['0.0001', 0.0001, '-1', -1, '1e3', 1e-7, '', 'abc', '3.', '.5', null, true, {}, Number.NaN, Infinity, '1000001', 2e6];
  for (const input of bad) t.throws(() => parseUsdPerMillion(input, 'models[0].prices.input'), { name: 'PriceError', message: /models\[0\]\.prices\.input/ }, JSON.stringify(input));
});

t.test('a price list needs all four kinds and nothing else', async (t) => {
  t.same(parseModelPrices({ input: '3', output: 15, cacheWrite: '3.75', cacheRead: '0.30' }, 'x'), { input: 3000, output: 15000, cacheWrite: 3750, cacheRead: 300 });
  t.throws(() => parseModelPrices({ input: '3', output: '15' }, 'x'), { message: /missing cacheWrite, cacheRead/ });
  t.throws(() => parseModelPrices({ input: '3', output: '15', cacheWrite: '1', cacheRead: '1', batch: '6' }, 'x'), { message: /unknown field\(s\) batch/ });
  t.same(
    parseModelPrices({ input: '3', output: 15, cacheWrite: '3.75', cacheRead: '0.30', cacheWrite1h: '6', webSearch: '10' }, 'x'),
    { input: 3000, output: 15000, cacheWrite: 3750, cacheRead: 300, cacheWrite1h: 6000, webSearch: 10_000_000 },
    'the optional kinds: 1-hour cache writes per million tokens, web search per 1,000 uses',
  );
  t.throws(() => parseModelPrices({ input: '3', output: '15', cacheWrite: '1', cacheRead: '1', webSearch: '0.0001' }, 'x'), { message: /webSearch must be USD per 1,000 uses/ });
  for (const v of [null, [], '3', 3]) t.throws(() => parseModelPrices(v, 'x'), PriceError);
});

t.test('the default models carry the published list prices', async (t) => {
  // 1-hour cache writes at 2x input, web search $10 per 1,000 (10,000,000 nano-dollars a search).
  t.same(LIST_PRICES['claude-opus-4-7'], { input: 5000, output: 25000, cacheWrite: 6250, cacheWrite1h: 10_000, cacheRead: 500, webSearch: 10_000_000 });
  t.same(LIST_PRICES['claude-sonnet-4-6'], { input: 3000, output: 15000, cacheWrite: 3750, cacheWrite1h: 6000, cacheRead: 300, webSearch: 10_000_000 });
  t.same(LIST_PRICES['claude-haiku-4-5-20251001'], { input: 1000, output: 5000, cacheWrite: 1250, cacheWrite1h: 2000, cacheRead: 100, webSearch: 10_000_000 });
  for (const m of DEFAULT_MODELS) t.equal(m.prices, LIST_PRICES[m.id as keyof typeof LIST_PRICES], m.id);
});
