// Budgets as values: amounts read by their digits, periods in UTC, and the pure rules the budget stage
// applies (charges, reservation, remaining, refusal text, retry-after).
import t from 'tap';
import { DEFAULT_MODELS, type CatalogModel } from '../../../src/catalog/model.js';
import type { Principal } from '../../../src/keys/principal.js';
import { firstRefusal, type BudgetCharge } from '../../../src/policy/budgets/budget-ledger.js';
import { periodAt } from '../../../src/policy/budgets/budget-period.js';
import { budgetCharges, refusalMessage, remainingNano, reservedCost, secondsToReset, inputEstimate, INPUT_CUSHION } from '../../../src/policy/budgets/budget-rules.js';
import { BudgetError, parseUsdAmount, validBudget, type Budget } from '../../../src/keys/budget.js';

const sonnet = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6') as CatalogModel;

t.test('parseUsdAmount: exact nano-dollars from the digits; refuses zero, too many decimals, too much', async (t) => {
  const good: Array<[unknown, number]> = [
    ['250', 250_000_000_000],
    ['12.50', 12_500_000_000],
    [12.5, 12_500_000_000],
    ['0.1', 100_000_000],
    ['0.000000001', 1],
    [' 3 ', 3_000_000_000],
    ['9000000', 9_000_000_000_000_000],
  ];
  for (const [value, nano] of good) t.equal(parseUsdAmount(value), nano, JSON.stringify(value));
  for (const bad of ['0', '0.000000000', '-1', '1.0000000001', '9000000.000000001', '10000000', 'ten', '', '1e3', null, Number.NaN, '1,5']) {
    t.throws(() => parseUsdAmount(bad), BudgetError, JSON.stringify(bad));
  }
});

t.test('validBudget: null stays null; bad fields refused', async (t) => {
  t.equal(validBudget(null), null);
  t.same(validBudget({ amountNanoUsd: 5, period: 'day', mode: 'soft' }), { amountNanoUsd: 5, period: 'day', mode: 'soft' });
  for (const bad of [{ amountNanoUsd: 0, period: 'day', mode: 'hard' }, { amountNanoUsd: 5, period: 'week', mode: 'hard' }, { amountNanoUsd: 5, period: 'day', mode: 'x' }]) {
    t.throws(() => validBudget(bad as Budget), BudgetError);
  }
});

t.test('periodAt: UTC day and month windows, their days and reset; total never resets', async (t) => {
  const cases: Array<[string, Budget['period'], { name: string; since: string | null; until: string | null; resetsAt: string | null }]> = [
    ['2026-11-25T13:00:00Z', 'day', { name: 'd2026-11-25', since: '2026-11-25', until: '2026-11-25', resetsAt: '2026-11-26T00:00:00.000Z' }],
    ['2026-11-30T23:59:59.999Z', 'month', { name: 'm2026-11', since: '2026-11-01', until: '2026-11-30', resetsAt: '2026-12-01T00:00:00.000Z' }],
    ['2026-12-01T00:00:00Z', 'month', { name: 'm2026-12', since: '2026-12-01', until: '2026-12-31', resetsAt: '2027-01-01T00:00:00.000Z' }],
    ['2028-02-10T00:00:00Z', 'month', { name: 'm2028-02', since: '2028-02-01', until: '2028-02-29', resetsAt: '2028-03-01T00:00:00.000Z' }],
    ['2026-12-31T23:00:00Z', 'day', { name: 'd2026-12-31', since: '2026-12-31', until: '2026-12-31', resetsAt: '2027-01-01T00:00:00.000Z' }],
    ['2026-11-25T13:00:00Z', 'total', { name: 'total', since: null, until: null, resetsAt: null }],
  ];
  for (const [at, period, want] of cases) {
    const w = periodAt(period, Date.parse(at));
    t.same({ ...w, resetsAt: w.resetsAt === null ? null : new Date(w.resetsAt).toISOString() }, want, `${period} at ${at}`);
  }
});

const principal = (keyBudget: Budget | null, customerBudget: Budget | null): Principal => ({
  keyId: 'KeyId0000000001',
  customerId: 'cus_1',
  customerName: 'acme',
  allowedModels: null,
  rpm: null,
  tpm: null,
  customerLimits: null,
  keyBudget,
  customerBudget,
});
const hard = (usd: number, period: Budget['period'] = 'month'): Budget => ({ amountNanoUsd: usd * 1e9, period, mode: 'hard' });
const soft = (usd: number, period: Budget['period'] = 'month'): Budget => ({ amountNanoUsd: usd * 1e9, period, mode: 'soft' });
const NOW = Date.parse('2026-11-30T23:59:00Z');

t.test('budgetCharges: the key first, then the customer; none without budgets', async (t) => {
  t.same(budgetCharges(principal(null, null), NOW), []);
  const both = budgetCharges(principal(hard(5, 'day'), soft(100)), NOW);
  t.same(both.map((c) => [c.scope, c.window.name, c.budget.mode]), [['key', 'd2026-11-30', 'hard'], ['customer', 'm2026-11', 'soft']]);
  t.same(budgetCharges(principal(null, hard(1, 'total')), NOW).map((c) => c.scope), ['customer']);
});

t.test('firstRefusal: hard budgets refuse what does not fit, soft ones never; the first refusing is named', async (t) => {
  const charges = (...budgets: Budget[]): BudgetCharge[] =>
    budgets.map((budget, i) => ({ scope: i === 0 ? 'key' : 'customer', customerId: 'c', keyId: 'k', budget, window: periodAt(budget.period, NOW) }));
  const cases: Array<[name: string, list: BudgetCharge[], spent: number[], cost: number, want: number]> = [
    ['fits exactly', charges(hard(1)), [0.5e9], 0.5e9, -1],
    ['one nano-dollar over', charges(hard(1)), [0.5e9], 0.5e9 + 1, 0],
    ['already spent, free request', charges(hard(1)), [1e9], 0, -1],
    ['overspent (a settle above its reservation), free request', charges(hard(1)), [1e9 + 1], 0, 0],
    ['soft never refuses', charges(soft(1)), [5e9], 1e9, -1],
    ['customer refuses when the key has room', charges(hard(10), hard(1)), [0, 0.9e9], 0.2e9, 1],
    ['both refuse: the key is named', charges(hard(1), hard(1)), [1e9, 1e9], 1, 0],
    ['soft key, hard customer', charges(soft(1), hard(2)), [3e9, 1.9e9], 0.2e9, 1],
  ];
  for (const [name, list, spent, cost, want] of cases) t.equal(firstRefusal(list, spent, cost, list.map((c) => c.budget.amountNanoUsd)), want, name);
});

t.test('firstRefusal with a cushion: beside others while the hold fits, else alone if the base fits', async (t) => {
  const list: BudgetCharge[] = [{ scope: 'key', customerId: 'c', keyId: 'k', budget: hard(1), window: periodAt('month', NOW) }];
  const cases: Array<[string, number, number, number, number, number]> = [
    // name, spent, hold, base, in flight, want
    ['hold fits, others in flight', 0.5e9, 0.4e9, 0.1e9, 3, -1],
    ['hold does not fit, others in flight: refused', 0.7e9, 0.4e9, 0.1e9, 1, 0],
    ['hold does not fit, alone, base fits', 0.7e9, 0.4e9, 0.1e9, 0, -1],
    ['alone, base does not fit either', 0.95e9, 0.4e9, 0.1e9, 0, 0],
  ];
  for (const [name, spent, hold, base, inFlight, want] of cases) t.equal(firstRefusal(list, [spent], hold, [1e9], [inFlight], base), want, name);
});

t.test('reservedCost: max_tokens at the output price plus body bytes / 4 at the input price; unpriced reserves 0', async (t) => {
  // Sonnet: $3 / $15 per million = 3000 / 15000 nano-dollars per token.
  t.equal(reservedCost({ max_tokens: 1000 }, 'messages', sonnet, sonnet.prices, 4000).base, 1000 * 15_000 + 1000 * 3000);
  t.equal(reservedCost({ max_tokens: 10 }, 'messages', sonnet, sonnet.prices, 5).base, 10 * 15_000 + 2 * 3000, 'bytes round up to a token');
  t.equal(reservedCost({}, 'messages', sonnet, sonnet.prices, 0).base, 0, 'count_tokens-like body: nothing');
  t.equal(reservedCost({ max_completion_tokens: 7, max_tokens: 100 }, 'chat', sonnet, sonnet.prices, 0).base, 7 * 15_000, 'chat: max_completion_tokens first');
  t.equal(reservedCost({}, 'chat', sonnet, sonnet.prices, 0).base, sonnet.defaultMaxTokens * 15_000, 'chat without max: the model default the translation sends');
  t.same(reservedCost({ max_tokens: 1000 }, 'messages', sonnet, null, 4000), { base: 0, hold: 0 });
  t.equal(reservedCost({ max_tokens: 1000 }, 'messages', sonnet, sonnet.prices, 4000).hold, 1000 * 15_000 + INPUT_CUSHION * 1000 * 3000, 'the hold cushions the input only');
});

t.test('inputEstimate: body bytes / 4 plus URL images and documents and declared server tools (finding N2)', async (t) => {
  const url = (type: string) => ({ type, source: { type: 'url', url: 'https://example.com/x' } });
  const cases: Array<[string, Record<string, unknown>, number]> = [
    ['text only', { messages: [{ role: 'user', content: 'hi' }] }, 100],
    ['an image by URL', { messages: [{ role: 'user', content: [url('image')] }] }, 100 + 1600],
    ['a document by URL', { messages: [{ role: 'user', content: [url('document'), url('image')] }] }, 100 + 25_000 + 1600],
    ['an inline (base64) image: its bytes are in the body', { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', data: 'AAAA' } }] }] }, 100],
    ['chat image_url', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://e.com/a.png' } }] }] }, 100 + 1600],
    ['responses input_image', { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://e.com/a.png' }] }] }, 100 + 1600],
    ['responses input_file by URL', { input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://e.com/a.pdf' }] }] }, 100 + 25_000],
    ['web search, default uses', { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 100 + 5 * 10_000],
    ['web search, max_uses 2', { tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }] }, 100 + 2 * 10_000],
    ['a client tool adds nothing', { tools: [{ name: 'get_weather', input_schema: {} }] }, 100],
  ];
  for (const [name, body, want] of cases) t.equal(inputEstimate(body, 400), want, name);
});

t.test('remaining, message, retry-after', async (t) => {
  const list = budgetCharges(principal(hard(5, 'day'), hard(100)), NOW);
  t.equal(remainingNano(list, [1e9, 98e9]), 2e9, 'the tighter budget');
  t.equal(remainingNano(list, [6e9, 0]), 0, 'never below 0');
  t.equal(refusalMessage(list[0], 'acme'), 'The spend budget of this API key (KeyId0000000001), 5.00 USD per day (UTC), is spent; it resets at 2026-12-01T00:00:00.000Z.');
  t.equal(refusalMessage(list[1], 'acme'), 'The spend budget of customer "acme", 100.00 USD per month (UTC), is spent; it resets at 2026-12-01T00:00:00.000Z.');
  t.equal(secondsToReset(list[1], NOW), 60);
  t.equal(secondsToReset(list[1], Date.parse('2026-11-30T23:59:59.999Z')), 1, 'at least 1');
  const total = budgetCharges(principal(null, hard(1, 'total')), NOW)[0];
  t.equal(secondsToReset(total, NOW), null);
  t.match(refusalMessage(total, 'acme'), /1\.00 USD in total, is spent; it does not reset/);
});
