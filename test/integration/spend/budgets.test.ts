// Spend budgets through a real gateway in front of the built-in simulator, with the official SDKs and
// plain HTTP: each surface's 429 (body, retry-after, remaining header), the reservation and its settle
// read back from the remaining header, soft mode (flagged, logged once, nothing refused), a month ending
// under an injected clock, a customer budget raised while the gateway runs, and the metrics.
import t from 'tap';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { formatUsd } from '../../../src/metering/cost.js';
import type { Budget } from '../../../src/keys/budget.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call, cancelMidStream } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';

const MODEL = 'claude-sonnet-4-6';
// Sonnet's list prices in nano-dollars per token: $3 input, $15 output per million.
const INPUT = 3000;
const OUTPUT = 15_000;
const DOLLAR = 1_000_000_000;
const monthly = (nano: number, mode: Budget['mode'] = 'hard'): Budget => ({ amountNanoUsd: nano, period: 'month', mode });
const messagesBody = (maxTokens = 16) => JSON.stringify({ model: MODEL, max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] });
const reserveOf = (body: string, maxTokens: number) => maxTokens * OUTPUT + Math.ceil(Buffer.byteLength(body) / 4) * INPUT;
const costOf = (u: { input_tokens: number; output_tokens: number }) => u.input_tokens * INPUT + u.output_tokens * OUTPUT;

t.test('messages surface: the remaining header follows reservation and settle; a hard key budget refuses with 429', async (t) => {
  // One minute before the month ends: retry-after is exactly 60 s.
  const h = await startHarness({ wallClock: () => Date.parse('2026-11-30T23:59:00Z') });
  t.teardown(() => h.close());
  const amount = DOLLAR / 1000; // $0.001
  const { key, id } = await h.createKey({ budget: monthly(amount) });
  const url = `${h.url}/gateway/v1/messages`;
  const body = messagesBody(16);

  const first = await call(url, { body, headers: bearer(key) });
  t.equal(first.status, 200, first.text);
  t.equal(first.headers['x-gateway-budget-remaining'], formatUsd(amount - reserveOf(body, 16)), 'what is left once this request\'s maximum is reserved');
  const spent1 = costOf(first.json().usage);
  t.ok(spent1 > 0 && spent1 < reserveOf(body, 16), `the real cost (${spent1}) is below the reservation`);

  const second = await call(url, { body, headers: bearer(key) });
  t.equal(second.status, 200);
  t.equal(second.headers['x-gateway-budget-remaining'], formatUsd(amount - spent1 - reserveOf(body, 16)), 'the first was settled at its real cost');

  // Spend the rest: the SDK sees a RateLimitError once the maximum no longer fits.
  const client = new Anthropic({ apiKey: key, baseURL: `${h.url}/gateway`, maxRetries: 0 });
  let refused: unknown = null;
  for (let i = 0; i < 20 && refused === null; i++) {
    refused = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).then(() => null, (e: unknown) => e);
  }
  t.type(refused, Anthropic.RateLimitError);
  const err = refused as InstanceType<typeof Anthropic.RateLimitError>;
  t.equal(err.status, 429);
  t.match(err.error, { type: 'error', error: { type: 'rate_limit_error' } });
  t.equal(
    (err.error as { error: { message: string } }).error.message,
    `The spend budget of this API key (${id}), 0.001 USD per month (UTC), is spent; it resets at 2026-12-01T00:00:00.000Z.`,
  );
  t.equal(err.headers?.get('retry-after'), '60', 'seconds until the month ends');
  t.ok(err.headers?.get('x-gateway-budget-remaining'), 'the remaining budget on the refusal too');

  const posts = h.simulator.received.filter((r) => r.method === 'POST').length;
  const raw = await call(url, { body, headers: bearer(key) });
  t.equal(raw.status, 429);
  t.equal(h.simulator.received.filter((r) => r.method === 'POST').length, posts, 'a refused request never reaches the upstream');

  const metrics = await call(`${h.url}/metrics`);
  t.match(metrics.text, /model_gateway_budget_exceeded_requests_total\{scope="key",action="refused"\} [1-9]/);
});

t.test('chat surface: a customer budget refuses with insufficient_quota (OpenAI SDK); keys without budgets carry no header', async (t) => {
  const h = await startHarness({ wallClock: () => Date.parse('2026-11-30T12:00:00Z') });
  t.teardown(() => h.close());
  const { key } = await h.createKey({ customer: 'acme' });
  const free = await h.createKey({ customer: 'beta' });
  const acme = await h.built.stores.keys.getCustomerByName('acme');
  await h.built.stores.keys.setCustomerBudget(acme!.id, monthly(DOLLAR / 10_000)); // $0.0001
  // The key cache reads the change on its next refresh.
  const client = new OpenAI({ apiKey: key, baseURL: `${h.url}/gateway/openai/v1`, maxRetries: 0 });
  let refused: unknown = null;
  await waitFor(async () => {
    refused = await client.chat.completions.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).then(() => null, (e: unknown) => e);
    return refused !== null;
  }, 10_000);
  t.type(refused, OpenAI.RateLimitError);
  const err = refused as InstanceType<typeof OpenAI.RateLimitError>;
  t.equal(err.status, 429);
  t.equal(err.code, 'insufficient_quota');
  t.equal(err.type, 'insufficient_quota');
  t.match(err.message, /The spend budget of customer "acme", 0\.0001 USD per month \(UTC\), is spent; it resets at 2026-12-01T00:00:00\.000Z\./);
  t.equal(err.headers?.get('retry-after'), String(12 * 3600), 'twelve hours to the month\'s end');

  const unbudgeted = await call(`${h.url}/gateway/openai/v1/chat/completions`, {
    body: JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(free.key),
  });
  t.equal(unbudgeted.status, 200);
  t.equal(unbudgeted.headers['x-gateway-budget-remaining'], undefined);

  // Raised mid-month: the same key gets through again once the change reaches the cache.
  await h.built.stores.keys.setCustomerBudget(acme!.id, monthly(DOLLAR));
  await waitFor(async () => (await client.chat.completions.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).then(() => true, () => false)), 10_000);
  const metrics = await call(`${h.url}/metrics`);
  t.match(metrics.text, /model_gateway_budget_exceeded_requests_total\{scope="customer",action="refused"\} [1-9]/);
  t.match(metrics.text, /model_gateway_budget_utilisation_ratio\{customer="acme",period="month"\} 0\.0\d+/, 'utilisation of the raised budget');
});

t.test('soft budget: nothing refused, each request past it flagged, one warning per budget and period', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey({ budget: monthly(1, 'soft') });
  const url = `${h.url}/gateway/v1/messages`;
  for (let i = 0; i < 4; i++) {
    const res = await call(url, { body: messagesBody(), headers: bearer(key) });
    t.equal(res.status, 200, `request ${i} served`);
    t.equal(res.headers['x-gateway-budget-remaining'], '0.00');
  }
  const metrics = await call(`${h.url}/metrics`);
  t.match(metrics.text, /model_gateway_budget_exceeded_requests_total\{scope="key",action="flagged"\} 4/);
  t.equal(h.logText().split('soft spend budget exceeded').length - 1, 1, 'logged once');
});

t.test('a day budget spent at 23:59:59 UTC is whole again at midnight (injected clock)', async (t) => {
  let now = Date.parse('2026-11-30T23:59:59Z');
  const h = await startHarness({ wallClock: () => now });
  t.teardown(() => h.close());
  const body = messagesBody(100);
  const { key } = await h.createKey({ budget: { amountNanoUsd: reserveOf(body, 100), period: 'day', mode: 'hard' } });
  const url = `${h.url}/gateway/v1/messages`;
  t.equal((await call(url, { body, headers: bearer(key) })).status, 200, 'exactly one maximum fits');
  const refused = await call(url, { body, headers: bearer(key) });
  t.equal(refused.status, 429, 'what the first cost leaves is less than a maximum');
  t.equal(refused.headers['retry-after'], '1');
  now = Date.parse('2026-12-01T00:00:00Z');
  const next = await call(url, { body, headers: bearer(key) });
  t.equal(next.status, 200, 'a new day, a new budget');
  t.equal(next.headers['x-gateway-budget-remaining'], '0.00', 'its maximum takes the whole new day');
});

t.test('a stream is settled at its real cost; a total budget refuses without retry-after', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const amount = DOLLAR / 1000;
  const { key } = await h.createKey({ budget: { amountNanoUsd: amount, period: 'total', mode: 'hard' } });
  const client = new Anthropic({ apiKey: key, baseURL: `${h.url}/gateway`, maxRetries: 0 });
  const final = await client.messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
  const streamed = costOf(final.usage);
  const body = messagesBody(16);
  const after = await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  t.equal(after.headers['x-gateway-budget-remaining'], formatUsd(amount - streamed - reserveOf(body, 16)), 'the stream counted what it really cost');
  let refused = after;
  for (let i = 0; i < 20 && refused.status === 200; i++) refused = await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  t.equal(refused.status, 429);
  t.equal(refused.headers['retry-after'], undefined, 'a total budget does not reset');
  t.match(refused.json().error.message, /0\.001 USD in total, is spent; it does not reset/);
});

t.test('a stream the client cancels gives back what it did not use: settled at the tokens reported', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 50000, tokensPerSecond: 400 } });
  t.teardown(() => h.close());
  const amount = 10 * DOLLAR;
  const { key } = await h.createKey({ budget: monthly(amount) });
  // $0.90 of output reserved; the client hangs up after a few hundred tokens.
  await cancelMidStream(`${h.url}/gateway/openai/v1/chat/completions`, key, { model: MODEL, max_tokens: 60000, stream: true, messages: [{ role: 'user', content: 'go on and on' }] });
  // The usage row is written after the settle: once it is in the store, the counter has the real cost.
  await waitFor(async () => (await h.built.stores.usage.totals({})).requests === 1, 30_000);
  const cancelled = Number((await h.built.stores.usage.totals({})).costNanoUsd);
  t.ok(cancelled > 0 && cancelled < 60000 * OUTPUT, `the cancelled stream cost ${cancelled}, less than its reservation`);
  const body = messagesBody(16);
  const next = await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  t.equal(next.headers['x-gateway-budget-remaining'], formatUsd(amount - cancelled - reserveOf(body, 16)));
});

t.test('count_tokens reserves nothing: it passes a budget too small for any generation, and leaves it as it was', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const body = messagesBody(16);
  // Less than one request's reservation: a messages call is refused at once.
  const amount = Math.floor(reserveOf(body, 16) / 2);
  const { key } = await h.createKey({ budget: monthly(amount) });
  const refused = await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  t.equal(refused.status, 429, refused.text);
  const counted = await call(`${h.url}/gateway/v1/messages/count_tokens`, {
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(key),
  });
  t.equal(counted.status, 200, counted.text);
  t.equal(counted.headers['x-gateway-budget-remaining'], formatUsd(amount), 'nothing reserved, nothing spent');
});
