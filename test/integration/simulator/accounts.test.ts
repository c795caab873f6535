// Several provider accounts in one simulator over real HTTP: each its own key, rate limits (with the
// provider's headers and 429s) and prompt cache; the simulator's clock moved ahead instead of waiting.
import t from 'tap';
import { startSimulator, type Simulator } from '../../../src/apps/simulator/index.js';
import { API_HEADERS, call, TEXT_REQUEST } from './raw-http.js';

let sim: Simulator;
t.before(async () => {
  sim = await startSimulator({
    accounts: [
      { id: 'a', apiKey: 'sk-a', limits: { requestsPerMinute: 2 } },
      { id: 'b', apiKey: 'sk-b', limits: { inputTokensPerMinute: 20_000, outputTokensPerMinute: 8_000 } },
      { id: 'c', apiKey: 'sk-c' },
    ],
  });
});
t.teardown(() => sim.close());
t.beforeEach(() => sim.resetAccounts());

const as = (key: string) => ({ ...API_HEADERS, 'x-api-key': key });
const CACHED = {
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  system: [{ type: 'text', text: 'You are a careful assistant. '.repeat(200), cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'What is cached?' }],
};
type Usage = { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } };
const usageOf = (body: string): Usage => (JSON.parse(body) as { usage: Usage }).usage;
/** The usage of a streamed reply's message_start. */
const streamedUsage = (body: string): Usage => (JSON.parse(body.split('\n')[1]!.slice('data: '.length)) as { message: { usage: Usage } }).message.usage;

t.test('each key selects its account; an unknown key is refused', async (t) => {
  const a = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'));
  t.equal(a.status, 200);
  t.equal(a.headers['anthropic-ratelimit-requests-limit'], '2');
  t.equal(a.headers['anthropic-ratelimit-requests-remaining'], '1');
  const b = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-b'));
  t.equal(b.headers['anthropic-ratelimit-input-tokens-limit'], '20000');
  t.equal(b.headers['anthropic-ratelimit-output-tokens-limit'], '8000');
  t.equal(b.headers['anthropic-ratelimit-requests-limit'], '4000', 'requests are not metered on b');
  const unknown = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-other'));
  t.equal(unknown.status, 401);
  t.equal(JSON.parse(unknown.body).error.message, 'invalid x-api-key');
});

t.test('over its request limit an account answers 429 with retry-after; the others are not touched; the clock refills it', async (t) => {
  for (let i = 0; i < 2; i++) t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'))).status, 200);
  const refused = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'));
  t.equal(refused.status, 429);
  t.equal(refused.headers['retry-after'], '30', 'one request of two a minute comes back in 30 s');
  t.equal(refused.headers['anthropic-ratelimit-requests-remaining'], '0');
  t.match(refused.headers['anthropic-ratelimit-requests-reset'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.match(JSON.parse(refused.body), { type: 'error', error: { type: 'rate_limit_error', message: /rate limit for your organization \(a\) of 2 requests per minute/ } });
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-c'))).status, 200, 'another account still answers');
  sim.advanceClock(30_000);
  const again = await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'));
  t.equal(again.status, 200, '30 s later one request fits');
  t.equal(again.headers['anthropic-ratelimit-requests-remaining'], '0');
});

t.test('output tokens are reserved at max_tokens while the request runs, input tokens counted as sent', async (t) => {
  const over = await call(sim.url, 'POST', '/v1/messages', { ...TEXT_REQUEST, max_tokens: 8000 }, as('sk-b'));
  t.equal(over.status, 200, 'a full bucket takes a request as large as itself');
  t.equal(over.headers['anthropic-ratelimit-output-tokens-remaining'], '0', 'reserved at max_tokens');
  t.equal(over.headers['anthropic-ratelimit-input-tokens-remaining'], '20000', 'a few input tokens, rounded to thousands');
  const next = await call(sim.url, 'POST', '/v1/messages', { ...TEXT_REQUEST, max_tokens: 1000 }, as('sk-b'));
  t.equal(next.status, 200, 'the unused reservation came back at the end');
  const big = await call(sim.url, 'POST', '/v1/messages', { ...TEXT_REQUEST, messages: [{ role: 'user', content: 'x'.repeat(60_000) }] }, as('sk-b'));
  t.equal(big.status, 200);
  const refused = await call(sim.url, 'POST', '/v1/messages', { ...TEXT_REQUEST, messages: [{ role: 'user', content: 'y'.repeat(40_000) }] }, as('sk-b'));
  t.equal(refused.status, 429, 'input over the limit');
  t.match(JSON.parse(refused.body).error.message, /20000 input tokens per minute/);
});

t.test('the prompt cache is per account: written on first sight, read after, for five minutes', async (t) => {
  const first = usageOf((await call(sim.url, 'POST', '/v1/messages', CACHED, as('sk-a'))).body);
  t.ok(first.cache_creation_input_tokens > 1000, `written: ${first.cache_creation_input_tokens}`);
  t.equal(first.cache_read_input_tokens, 0);
  t.equal(first.cache_creation.ephemeral_5m_input_tokens, first.cache_creation_input_tokens);
  const streamed = await call(sim.url, 'POST', '/v1/messages', { ...CACHED, stream: true }, as('sk-a'));
  const second = streamedUsage(streamed.body);
  t.equal(second.cache_read_input_tokens, first.cache_creation_input_tokens, 'read on the same account, streamed or not');
  t.equal(second.cache_creation_input_tokens, 0);
  t.equal(second.input_tokens, first.input_tokens);
  const other = usageOf((await call(sim.url, 'POST', '/v1/messages', CACHED, as('sk-c'))).body);
  t.equal(other.cache_read_input_tokens, 0, 'another account has its own cache');
  t.equal(other.cache_creation_input_tokens, first.cache_creation_input_tokens);
  sim.resetAccounts('a');
  t.equal(usageOf((await call(sim.url, 'POST', '/v1/messages', CACHED, as('sk-a'))).body).cache_read_input_tokens, 0, 'emptied by a reset');
  sim.advanceClock(4 * 60_000);
  t.equal(usageOf((await call(sim.url, 'POST', '/v1/messages', CACHED, as('sk-c'))).body).cache_read_input_tokens, first.cache_creation_input_tokens, 'read at four minutes');
  sim.advanceClock(5 * 60_000 + 1);
  t.equal(usageOf((await call(sim.url, 'POST', '/v1/messages', CACHED, as('sk-c'))).body).cache_read_input_tokens, 0, 'expired five minutes after its last read');
});

t.test('a one-hour breakpoint lives an hour', async (t) => {
  const long = { ...CACHED, system: [{ ...CACHED.system[0]!, cache_control: { type: 'ephemeral', ttl: '1h' } }] };
  const first = usageOf((await call(sim.url, 'POST', '/v1/messages', long, as('sk-c'))).body);
  t.equal(first.cache_creation.ephemeral_1h_input_tokens, first.cache_creation_input_tokens);
  sim.advanceClock(50 * 60_000);
  t.equal(usageOf((await call(sim.url, 'POST', '/v1/messages', long, as('sk-c'))).body).cache_read_input_tokens, first.cache_creation_input_tokens);
});

t.test('a fault aimed at one account strikes only its calls', async (t) => {
  sim.injectFault({ kind: 'status', status: 529 }, 1, 'b');
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'))).status, 200);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-b'))).status, 529);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-b'))).status, 200, 'once');
  t.throws(() => sim.injectFault({ kind: 'status', status: 529 }, 1, 'nobody'), /no simulator account nobody/);
});

t.test('the control endpoint moves the clock, resets accounts and aims faults', async (t) => {
  for (let i = 0; i < 2; i++) await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'));
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'))).status, 429);
  t.equal((await call(sim.url, 'POST', '/_simulator/clock', { advanceMs: 60_000 })).status, 204);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'))).status, 200, 'a minute later');
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'))).status, 200);
  t.equal((await call(sim.url, 'POST', '/_simulator/accounts/reset', { id: 'a' })).status, 204);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-a'))).status, 200, 'refilled by the reset');
  t.equal((await call(sim.url, 'POST', '/_simulator/faults', { fault: { kind: 'status', status: 500 }, account: 'c' })).status, 204);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-b'))).status, 200);
  t.equal((await call(sim.url, 'POST', '/v1/messages', TEXT_REQUEST, as('sk-c'))).status, 500);
  const bad = await call(sim.url, 'POST', '/_simulator/accounts/reset', { id: 'z' });
  t.same([bad.status, JSON.parse(bad.body)], [400, { error: 'no simulator account z' }]);
  t.equal((await call(sim.url, 'POST', '/_simulator/clock', { advanceMs: -1 })).status, 400);
});

t.test('a simulator without accounts: one account, any key, nothing metered, the whole header set', async (t) => {
  const plain = await startSimulator({});
  t.teardown(() => plain.close());
  const r = await call(plain.url, 'POST', '/v1/messages', TEXT_REQUEST, as('anything'));
  t.equal(r.status, 200);
  t.match(r.headers, {
    'anthropic-ratelimit-requests-limit': '4000',
    'anthropic-ratelimit-requests-remaining': '3999',
    'anthropic-ratelimit-tokens-limit': '2000000',
    'anthropic-ratelimit-input-tokens-limit': '1600000',
    'anthropic-ratelimit-output-tokens-limit': '400000',
    'anthropic-ratelimit-output-tokens-reset': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
  });
});
