// Retries, fallbacks and the circuit breaker through the real gateway.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';

const body = (model: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...extra });
const posts = (h: { simulator: { received: Array<{ method: string; body: Buffer }> } }) =>
  h.simulator.received.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body.toString('utf8')).model as string);

t.test('a transient upstream failure is retried before anything reaches the client', async (t) => {
  const h = await startHarness({ env: { GATEWAY_RETRY_ATTEMPTS: '3', GATEWAY_RETRY_BASE_DELAY_MS: '1' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  h.simulator.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 });
  h.simulator.injectFault({ kind: 'status', status: 503, retryAfter: 0 });
  const res = await call(`${h.url}/gateway/v1/messages`, { body: body('claude-sonnet-4-6'), headers: bearer(key) });
  t.equal(res.status, 200, res.text);
  t.equal(res.headers['x-gateway-model'], 'claude-sonnet-4-6');
  t.equal(posts(h).length, 3);
  const metrics = (await call(`${h.url}/metrics`)).text;
  t.match(metrics, /model_gateway_upstream_retries_total\{reason="529"\} 1/);
  t.match(metrics, /model_gateway_upstream_retries_total\{reason="503"\} 1/);

  // A streamed request is retried the same way: the failure came before the stream began.
  h.simulator.injectFault({ kind: 'status', status: 500 });
  const streamed = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: body('claude-sonnet-4-6', { stream: true }), headers: bearer(key) });
  t.equal(streamed.status, 200);
  t.match(streamed.text, /data: \[DONE\]\n\n$/);
});

t.test('when retries run out, the upstream answer goes back as it came', async (t) => {
  const h = await startHarness({ env: { GATEWAY_RETRY_ATTEMPTS: '2', GATEWAY_RETRY_BASE_DELAY_MS: '1' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  h.simulator.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 }, 2);
  const res = await call(`${h.url}/gateway/v1/messages`, { body: body('claude-sonnet-4-6'), headers: bearer(key) });
  t.equal(res.status, 529);
  t.equal(res.json().error.type, 'overloaded_error');
});

t.test('an overloaded model falls back to the catalogue’s next: header and body say which served', async (t) => {
  const h = await startHarness({ env: { GATEWAY_RETRY_ATTEMPTS: '2', GATEWAY_RETRY_BASE_DELAY_MS: '1' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();

  h.simulator.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 }, 2);
  const messages = await call(`${h.url}/gateway/v1/messages`, { body: body('claude-opus-4-7'), headers: bearer(key) });
  t.equal(messages.status, 200, messages.text);
  t.equal(messages.headers['x-gateway-model'], 'claude-sonnet-4-6');
  t.equal(messages.json().model, 'claude-sonnet-4-6');
  t.same(posts(h), ['claude-opus-4-7', 'claude-opus-4-7', 'claude-sonnet-4-6']);

  h.simulator.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 }, 2);
  const chat = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: body('claude-opus-4-7'), headers: bearer(key) });
  t.equal(chat.status, 200, chat.text);
  t.equal(chat.headers['x-gateway-model'], 'claude-sonnet-4-6');
  t.equal(chat.json().model, 'claude-sonnet-4-6');

  const normal = await call(`${h.url}/gateway/v1/messages`, { body: body('claude-opus-4-7'), headers: bearer(key) });
  t.equal(normal.headers['x-gateway-model'], 'claude-opus-4-7', 'without trouble the model asked for serves');

  await waitFor(async () => (await h.built.stores.usage.totals()).requests === 3, 30_000);
  const rows = await h.built.stores.usage.query();
  t.same(rows.map((r) => [r.model, r.requests]).sort(), [['claude-opus-4-7', 1], ['claude-sonnet-4-6', 2]], 'usage is recorded for the model that served');
});

t.test('a key not allowed the fallback model gets the original failure', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey({ models: ['claude-opus-4-7'] });
  h.simulator.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 });
  const res = await call(`${h.url}/gateway/v1/messages`, { body: body('claude-opus-4-7'), headers: bearer(key) });
  t.equal(res.status, 529);
  t.same(posts(h), ['claude-opus-4-7']);
});

t.test('the circuit opens once every call failed, fails fast in each surface’s shape, and closes again', async (t) => {
  // GATEWAY_BREAKER_FAILURES: the older name of GATEWAY_BREAKER_MIN_CALLS still works.
  const h = await startHarness({ env: { GATEWAY_BREAKER_FAILURES: '2', GATEWAY_BREAKER_COOLDOWN_MS: '300' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  h.simulator.injectFault({ kind: 'status', status: 500 }, 2);
  for (let i = 0; i < 2; i++) t.equal((await call(`${h.url}/gateway/v1/messages`, { body: body('claude-sonnet-4-6'), headers: bearer(key) })).status, 500);
  const sent = posts(h).length;

  const messages = await call(`${h.url}/gateway/v1/messages`, { body: body('claude-sonnet-4-6'), headers: bearer(key) });
  t.equal(messages.status, 503);
  t.equal(messages.json().error.type, 'overloaded_error');
  t.ok(Number(messages.headers['retry-after']) >= 1);
  const chat = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: body('claude-sonnet-4-6'), headers: bearer(key) });
  t.equal(chat.status, 503);
  t.same(chat.json().error.code, 'upstream_unavailable');
  t.same(chat.json().error.type, 'server_error');
  t.equal(posts(h).length, sent, 'nothing reached the upstream while open');

  const ready = await call(`${h.url}/readyz`);
  t.equal(ready.status, 200, 'an open circuit does not take this instance out of rotation');
  t.same(ready.json().circuits, { 'claude-sonnet-4-6': 'open' });
  t.match((await call(`${h.url}/metrics`)).text, /model_gateway_circuit_breaker_state\{route="claude-sonnet-4-6",state="open"\} 1/);

  await new Promise((r) => setTimeout(r, 350));
  const probe = await call(`${h.url}/gateway/v1/messages`, { body: body('claude-sonnet-4-6'), headers: bearer(key) });
  t.equal(probe.status, 200, 'after the cool-down a probe goes through and succeeds');
  t.same((await call(`${h.url}/readyz`)).json().circuits, { 'claude-sonnet-4-6': 'closed' });
  t.match((await call(`${h.url}/metrics`)).text, /model_gateway_circuit_breaker_state\{route="claude-sonnet-4-6",state="closed"\} 1/);
});
