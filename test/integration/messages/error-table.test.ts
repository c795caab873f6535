// Every row of the error table (docs/contract.md) that applies to the messages surface: status and body shape.
import t from 'tap';
import type { Test } from 'tap';
import { waitFor } from '../../helpers/wait.js';
import { closedPort } from '../../helpers/ports.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call, type RawResponse } from '../../helpers/http.js';

const MODEL = 'claude-sonnet-4-6';
const ok = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

function assertMessagesError(t: Test, res: { status: number; text: string; headers: Record<string, unknown> }, status: number, type: string) {
  t.equal(res.status, status, `status ${status}: ${res.text}`);
  const body = JSON.parse(res.text);
  t.equal(body.type, 'error');
  t.equal(body.error.type, type);
  t.type(body.error.message, 'string');
  t.ok(res.headers['request-id'] && res.headers['x-request-id'], 'request ids on errors too');
}

t.test('messages surface error table', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key, id } = await h.createKey();
  const url = `${h.url}/gateway/v1/messages`;

  const cases: Array<[string, () => Promise<RawResponse>, number, string]> = [
    ['no key', () => call(url, { body: ok, headers: { 'content-type': 'application/json' } }), 401, 'authentication_error'],
    ['malformed key', () => call(url, { body: ok, headers: bearer('not-a-gateway-key') }), 401, 'authentication_error'],
    ['unknown key', () => call(url, { body: ok, headers: bearer('mgw_AAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB') }), 401, 'authentication_error'],
    ['model not in the catalogue', () => call(url, { body: ok.replace(MODEL, 'gpt-nonexistent'), headers: bearer(key) }), 404, 'not_found_error'],
    ['body not JSON', () => call(url, { body: '{"model":', headers: bearer(key) }), 400, 'invalid_request_error'],
    ['body not an object', () => call(url, { body: '[1,2]', headers: bearer(key) }), 400, 'invalid_request_error'],
    ['model missing', () => call(url, { body: '{"max_tokens":3}', headers: bearer(key) }), 400, 'invalid_request_error'],
    ['upstream validation (max_tokens missing) passes through', () => call(url, { body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }), headers: bearer(key) }), 400, 'invalid_request_error'],
    ['temperature out of range, from upstream', () => call(url, { body: JSON.stringify({ model: MODEL, max_tokens: 5, temperature: 1.7, messages: [{ role: 'user', content: 'x' }] }), headers: bearer(key) }), 400, 'invalid_request_error'],
    ['wrong content type', () => call(url, { body: ok, headers: { ...bearer(key), 'content-type': 'text/plain' } }), 415, 'invalid_request_error'],
    ['unknown path under the surface', () => call(`${h.url}/gateway/v1/complete`, { body: ok, headers: bearer(key) }), 404, 'not_found_error'],
  ];
  for (const [name, run, status, type] of cases) {
    t.test(name, async (t) => assertMessagesError(t, await run(), status, type));
  }

  t.test('key not allowed this model → 403', async (t) => {
    const limited = await h.createKey({ models: ['claude-haiku-4-5-20251001'] });
    assertMessagesError(t, await call(url, { body: ok, headers: bearer(limited.key) }), 403, 'permission_error');
    const allowed = await call(url, { body: ok.replace(MODEL, 'claude-haiku-4-5-20251001'), headers: bearer(limited.key) });
    t.equal(allowed.status, 200);
  });

  t.test('expired key → 401', async (t) => {
    const expiring = await h.createKey({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    t.equal((await call(url, { body: ok, headers: bearer(expiring.key) })).status, 200, 'valid before its expiry');
    await new Promise((r) => setTimeout(r, 1600));
    assertMessagesError(t, await call(url, { body: ok, headers: bearer(expiring.key) }), 401, 'authentication_error');
  });

  t.test('upstream overloaded (529) passes through', async (t) => {
    h.simulator.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error', message: 'Overloaded' });
    assertMessagesError(t, await call(url, { body: ok, headers: bearer(key) }), 529, 'overloaded_error');
  });

  t.test('upstream refuses the gateway credential → 502, never 401', async (t) => {
    h.simulator.injectFault({ kind: 'status', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' });
    const res = await call(url, { body: ok, headers: bearer(key) });
    assertMessagesError(t, res, 502, 'api_error');
    t.notMatch(res.text, /x-api-key/, "the provider's words about our credential stay here");
  });

  t.test('upstream reset before headers → 502', async (t) => {
    h.simulator.injectFault({ kind: 'reset-before-headers' });
    assertMessagesError(t, await call(url, { body: ok, headers: bearer(key) }), 502, 'api_error');
  });

  t.test('body over the size limit → 413', async (t) => {
    const small = await startHarness({ env: { GATEWAY_MAX_BODY_BYTES: '2048' } });
    t.teardown(() => small.close());
    const k = await small.createKey();
    const big = JSON.stringify({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x'.repeat(5000) }] });
    assertMessagesError(t, await call(`${small.url}/gateway/v1/messages`, { body: big, headers: bearer(k.key) }), 413, 'request_too_large');
  });

  t.test('upstream does not answer headers in time → 504', async (t) => {
    const slow = await startHarness({ env: { GATEWAY_UPSTREAM_HEADERS_TIMEOUT_MS: '300' } });
    t.teardown(() => slow.close());
    const k = await slow.createKey();
    slow.simulator.injectFault({ kind: 'hang-before-headers' });
    assertMessagesError(t, await call(`${slow.url}/gateway/v1/messages`, { body: ok, headers: bearer(k.key) }), 504, 'api_error');
  });

  t.test('upstream unreachable → 502', async (t) => {
    const port = await closedPort();
    const down = await startHarness({ env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` } });
    t.teardown(() => down.close());
    const k = await down.createKey();
    assertMessagesError(t, await call(`${down.url}/gateway/v1/messages`, { body: ok, headers: bearer(k.key) }), 502, 'api_error');
  });

  // Last of the requests through the shared harness: a 429 cools the model's route down, and the
  // requests after it in the cool-down would be answered 429 by the gateway without reaching the upstream.
  t.test('upstream rate limit: status, body and retry-after unchanged', async (t) => {
    h.simulator.injectFault({ kind: 'status', status: 429, errorType: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit', retryAfter: 7 });
    const res = await call(url, { body: ok, headers: bearer(key) });
    assertMessagesError(t, res, 429, 'rate_limit_error');
    t.equal(res.headers['retry-after'], '7');
    t.match(res.json().error.message, /rate limit/);
  });

  t.test('revoked key → 401', async (t) => {
    await h.built.stores.keys.revokeKey(id);
    await waitFor(async () => (await call(url, { body: ok, headers: bearer(key) })).status === 401, 5000);
    assertMessagesError(t, await call(url, { body: ok, headers: bearer(key) }), 401, 'authentication_error');
  });
});
