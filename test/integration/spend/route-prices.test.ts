// Issue 34, through a real gateway in front of two simulated accounts, one of them a route with prices
// of its own ten times the model's: a hard budget reserves at the dearest way a request may be served,
// since the settle charges the route that served it. So a budget that fits a request at the model's
// price but not at the dear route's refuses it up front; a priced model whose fallback has no price is
// refused (403 model_not_priced), as the fallback would be served at cost 0; and a model without a price
// of its own whose every route has prices is served.
import t from 'tap';
import { startHarness, type Harness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { MODEL, startAccounts } from '../routes/fixtures/accounts.js';
import { LIST_PRICES } from '../../../src/metering/list-prices.js';

const DOLLAR = 1_000_000_000;
/** Ten times the model's list price (Sonnet: $3 / $15 per million tokens). */
const DEAR_PRICES = { input: '30', output: '150', cacheWrite: '37.5', cacheRead: '3' };
const GUARDED = 'claude-guarded-1';
const UNPRICED_FALLBACK = 'claude-unpriced-fallback-1';
const ROUTE_PRICED = 'claude-route-priced-1';

const body = (model: string, maxTokens = 16) => JSON.stringify({ model, max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] });

async function gateway(): Promise<{ h: Harness; posts: () => number }> {
  const sonnetOnCheap = { provider: 'cheap', model: MODEL };
  const accounts = await startAccounts(t, [{ id: 'cheap' }, { id: 'dear', prices: DEAR_PRICES }], [
    // Priced, but when its route fails the router moves to a model nobody priced.
    { id: GUARDED, prices: { input: '3', output: '15', cacheWrite: '3.75', cacheRead: '0.3' }, fallbacks: [UNPRICED_FALLBACK], routes: [sonnetOnCheap] },
    { id: UNPRICED_FALLBACK, routes: [sonnetOnCheap] },
    // No price of its own; its only route has one.
    { id: ROUTE_PRICED, routes: [{ ...sonnetOnCheap, prices: DEAR_PRICES }] },
  ]);
  const h = await startHarness({ env: accounts.env });
  t.teardown(() => h.close());
  return { h, posts: () => Object.values(accounts.counts()).reduce((a, b) => a + b, 0) };
}

t.test('a hard budget reserves at the dearer route: one that fits the model’s price but not the route’s refuses up front', async (t) => {
  const { h, posts } = await gateway();
  // 1,000 output tokens: $0.015 at the model's price, $0.15 at the dear route's (and a few input tokens).
  const sonnet = LIST_PRICES[MODEL]!;
  const atModelPrice = 1000 * sonnet.output;
  t.ok(atModelPrice < DOLLAR / 20, 'the request at the model’s price fits the budget several times over');
  const tight = await h.createKey({ budget: { amountNanoUsd: DOLLAR / 20, period: 'month', mode: 'hard' } });
  const refused = await call(`${h.url}/gateway/v1/messages`, { body: body(MODEL, 1000), headers: bearer(tight.key) });
  t.equal(refused.status, 429, refused.text);
  t.equal(refused.json().error.type, 'rate_limit_error');
  t.match(refused.json().error.message, /spend budget of this API key/);
  t.equal(posts(), 0, 'nothing went upstream');

  // Room for the dear route: served, and what is left is the budget less the dear reservation.
  const roomy = await h.createKey({ budget: { amountNanoUsd: DOLLAR / 5, period: 'month', mode: 'hard' } });
  const served = await call(`${h.url}/gateway/v1/messages`, { body: body(MODEL, 1000), headers: bearer(roomy.key) });
  t.equal(served.status, 200, served.text);
  t.ok(Number(served.headers['x-gateway-budget-remaining']) <= 0.05, `held at the dear route's $0.15 and more (${String(served.headers['x-gateway-budget-remaining'])} left of $0.20)`);
});

t.test('a priced model with an unpriced fallback is refused under a hard budget, served under a soft one or to a key without the fallback', async (t) => {
  const { h, posts } = await gateway();
  const hard = await h.createKey({ budget: { amountNanoUsd: DOLLAR, period: 'month', mode: 'hard' } });
  const messages = await call(`${h.url}/gateway/v1/messages`, { body: body(GUARDED), headers: bearer(hard.key) });
  t.equal(messages.status, 403, messages.text);
  t.equal(messages.json().error.type, 'permission_error');
  t.match(messages.json().error.message, new RegExp(`"${GUARDED}" has no price`));
  const chat = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: body(GUARDED), headers: bearer(hard.key) });
  t.equal(chat.status, 403, chat.text);
  t.match(chat.json().error, { code: 'model_not_priced', param: 'model' });
  t.equal(posts(), 0, 'nothing went upstream');

  const soft = await h.createKey({ budget: { amountNanoUsd: DOLLAR, period: 'month', mode: 'soft' } });
  t.equal((await call(`${h.url}/gateway/v1/messages`, { body: body(GUARDED), headers: bearer(soft.key) })).status, 200, 'a soft budget serves it (flagged)');
  // The router never takes this key to the fallback, so it does not decide the price.
  const limited = await h.createKey({ models: [GUARDED], budget: { amountNanoUsd: DOLLAR, period: 'month', mode: 'hard' } });
  t.equal((await call(`${h.url}/gateway/v1/messages`, { body: body(GUARDED), headers: bearer(limited.key) })).status, 200, 'a key that may not use the fallback is served');
});

t.test('a model without a price whose every route has prices is served under a hard budget', async (t) => {
  const { h } = await gateway();
  t.equal(h.runtime.catalogue.resolve(ROUTE_PRICED)?.prices, null, 'the model itself has no price');
  const hard = await h.createKey({ budget: { amountNanoUsd: DOLLAR, period: 'month', mode: 'hard' } });
  const messages = await call(`${h.url}/gateway/v1/messages`, { body: body(ROUTE_PRICED), headers: bearer(hard.key) });
  t.equal(messages.status, 200, messages.text);
  const chat = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: body(ROUTE_PRICED), headers: bearer(hard.key) });
  t.equal(chat.status, 200, chat.text);
});
