// Per-key and per-customer limits through the real gateway: 429 in each surface's shape with
// retry-after and the surface's own limit headers, reservations settled with real usage, and
// failed authentications throttled per client address.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

const MODEL = 'claude-sonnet-4-6';
const messagesBody = (maxTokens = 16) => JSON.stringify({ model: MODEL, max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] });
const chatBody = (maxTokens?: number) => JSON.stringify({ model: MODEL, ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }), messages: [{ role: 'user', content: 'hi' }] });

t.test('requests per minute on the messages surface', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey({ rpm: 2 });
  const url = `${h.url}/gateway/v1/messages`;
  const first = await call(url, { body: messagesBody(), headers: bearer(key) });
  t.equal(first.status, 200);
  t.equal(first.headers['anthropic-ratelimit-requests-limit'], '2', "the key's own limit, not the upstream account's");
  t.equal(first.headers['anthropic-ratelimit-requests-remaining'], '1');
  t.match(String(first.headers['anthropic-ratelimit-requests-reset']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.equal(first.headers['anthropic-ratelimit-tokens-limit'], undefined, 'no token limit, no token headers');
  t.equal(first.headers['x-ratelimit-limit-requests'], undefined, 'the chat style stays on the chat surface');
  t.equal((await call(url, { body: messagesBody(), headers: bearer(key) })).status, 200);

  const refused = await call(url, { body: messagesBody(), headers: bearer(key) });
  t.equal(refused.status, 429);
  t.same(refused.json(), { type: 'error', error: { type: 'rate_limit_error', message: refused.json().error.message } });
  t.equal(refused.headers['retry-after'], '30', '2 per minute: the next one in 30 s');
  t.equal(refused.headers['anthropic-ratelimit-requests-remaining'], '0');
  t.ok(refused.headers['request-id'], 'request id on the 429 too');
  t.equal(h.simulator.received.filter((r) => r.method === 'POST').length, 2, 'the refused request never reached the upstream');

  const metrics = await call(`${h.url}/metrics`);
  t.match(metrics.text, /model_gateway_rate_limited_requests_total\{surface="messages",scope="key"\} 1/);
});

t.test('tokens per minute on the chat surface: max_tokens reserved, settled with the real usage', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 12 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey({ tpm: 1000 });
  const url = `${h.url}/gateway/openai/v1/chat/completions`;
  const first = await call(url, { body: chatBody(900), headers: bearer(key) });
  t.equal(first.status, 200, first.text);
  t.equal(first.headers['x-ratelimit-limit-tokens'], '1000');
  t.equal(first.headers['x-ratelimit-remaining-tokens'], '100', 'the 900 reserved are counted while the request runs');
  t.match(String(first.headers['x-ratelimit-reset-tokens']), /^(\d+ms|[\d.]+s|\d+m[\d.]+s)$/);
  t.equal(first.headers['x-ratelimit-limit-requests'], undefined);
  const used = first.json().usage.total_tokens as number;
  t.ok(used > 0 && used < 100, `the reply used ${used} tokens`);

  // Settled: 1000 - used is free again (plus refill), so another 900 fits.
  const second = await call(url, { body: chatBody(900), headers: bearer(key) });
  t.equal(second.status, 200, 'the first reservation was given back');
});

t.test('usage above the reservation is a debt that refuses the next requests', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey({ tpm: 100 });
  const url = `${h.url}/gateway/openai/v1/chat/completions`;
  const long = JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'word '.repeat(400) }] });
  const first = await call(url, { body: long, headers: bearer(key) });
  t.equal(first.status, 200, first.text);
  t.ok(first.json().usage.prompt_tokens > 200, 'a long prompt: its input tokens count');
  const refused = await call(url, { body: chatBody(10), headers: bearer(key) });
  t.equal(refused.status, 429);
  t.equal(refused.json().error.code, 'rate_limit_exceeded');
  t.ok(Number(refused.headers['retry-after']) > 60, `the debt takes minutes to repay (retry-after ${refused.headers['retry-after']})`);
  t.equal(refused.headers['x-ratelimit-remaining-tokens'], '0');
});

t.test('the chat surface reserves the model default when max_tokens is absent', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey({ tpm: 5000 });
  const res = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: chatBody(), headers: bearer(key) });
  t.equal(res.status, 200, res.text);
  t.equal(res.headers['x-ratelimit-remaining-tokens'], String(5000 - 4096));
});

t.test('customer limits from GATEWAY_CUSTOMER_LIMITS apply across the customer’s keys', async (t) => {
  const h = await startHarness({ env: { GATEWAY_CUSTOMER_LIMITS: JSON.stringify({ acme: { rpm: 2 } }) } });
  t.teardown(() => h.close());
  const a = await h.createKey({ customer: 'acme' });
  const b = await h.createKey({ customer: 'acme' });
  const other = await h.createKey({ customer: 'globex' });
  const url = `${h.url}/gateway/v1/messages`;
  t.equal((await call(url, { body: messagesBody(), headers: bearer(a.key) })).status, 200);
  t.equal((await call(url, { body: messagesBody(), headers: bearer(b.key) })).status, 200);
  const refused = await call(url, { body: messagesBody(), headers: bearer(b.key) });
  t.equal(refused.status, 429);
  t.match(refused.json().error.message, /organisation/);
  t.equal((await call(url, { body: messagesBody(), headers: bearer(other.key) })).status, 200, 'another customer is not affected');
  const metrics = await call(`${h.url}/metrics`);
  t.match(metrics.text, /model_gateway_rate_limited_requests_total\{surface="messages",scope="customer"\} 1/);
});

t.test('a key without limits gets no limit headers, and never the upstream account’s', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  for (const stream of [false, true]) {
    const res = await call(`${h.url}/gateway/v1/messages`, { body: JSON.stringify({ ...JSON.parse(messagesBody()), stream }), headers: bearer(key) });
    t.equal(res.status, 200);
    const leaked = Object.keys(res.headers).filter((n) => n.startsWith('anthropic-ratelimit-') || n.startsWith('x-ratelimit-'));
    t.same(leaked, [], `stream=${stream}: no rate-limit headers`);
  }
  const upstreamSent = await call(`${h.simulator.url}/v1/messages`, {
    body: messagesBody(),
    headers: { 'x-api-key': 'sk-upstream-test-0123456789abcdef', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
  });
  t.ok(upstreamSent.headers['anthropic-ratelimit-requests-limit'], 'the simulator does send them: the gateway removed them');
});

t.test('failed authentications are throttled per client address', async (t) => {
  const h = await startHarness({ env: { GATEWAY_AUTH_FAILURES_PER_MINUTE: '3' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const url = `${h.url}/gateway/v1/messages`;
  t.equal((await call(url, { body: messagesBody(), headers: bearer(key) })).status, 200, 'the key is known to this process');
  for (let i = 0; i < 3; i++) t.equal((await call(url, { body: messagesBody(), headers: bearer('mgw_bad_key') })).status, 401);
  const throttled = await call(url, { body: messagesBody(), headers: bearer('mgw_bad_key') });
  t.equal(throttled.status, 429);
  t.equal(throttled.json().error.type, 'rate_limit_error');
  t.equal(throttled.headers['retry-after'], '20');
  const unknown = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: chatBody(), headers: bearer('mgw_AAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB') });
  t.equal(unknown.status, 429, 'the address is throttled on every surface');
  t.equal(unknown.json().error.code, 'rate_limit_exceeded');
  const valid = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: chatBody(), headers: bearer(key) });
  t.equal(valid.status, 200, 'a key this process knows still gets through: clients sharing the address keep working');
  const viaXApiKey = await call(url, { body: messagesBody(), headers: { 'x-api-key': key, 'content-type': 'application/json' } });
  t.equal(viaXApiKey.status, 200, 'x-api-key counts on the messages surface');
  t.equal((await call(`${h.url}/healthz`)).status, 200, 'operations paths are not throttled');
  const metrics = await call(`${h.url}/metrics`);
  t.match(metrics.text, /model_gateway_auth_failures_total\{reason="throttled"\} 2/);
  t.match(metrics.text, /model_gateway_rate_limited_requests_total\{surface="chat",scope="auth"\} 1/);
});

t.test('behind a trusted proxy the client is read from X-Forwarded-For', async (t) => {
  const h = await startHarness({ env: { GATEWAY_AUTH_FAILURES_PER_MINUTE: '2', GATEWAY_TRUSTED_PROXIES: '127.0.0.1' } });
  t.teardown(() => h.close());
  const url = `${h.url}/gateway/v1/messages`;
  const from = (client: string) => bearer('mgw_bad_key', { 'x-forwarded-for': `6.6.6.6, ${client}` });
  for (let i = 0; i < 2; i++) t.equal((await call(url, { body: messagesBody(), headers: from('203.0.113.9') })).status, 401);
  t.equal((await call(url, { body: messagesBody(), headers: from('203.0.113.9') })).status, 429, 'that client is throttled');
  t.equal((await call(url, { body: messagesBody(), headers: from('198.51.100.7') })).status, 401, 'another client behind the same proxy is not');
});

t.test('successful requests do not count toward the auth throttle', async (t) => {
  const h = await startHarness({ env: { GATEWAY_AUTH_FAILURES_PER_MINUTE: '1' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  for (let i = 0; i < 5; i++) t.equal((await call(`${h.url}/gateway/v1/messages`, { body: messagesBody(), headers: bearer(key) })).status, 200);
});
