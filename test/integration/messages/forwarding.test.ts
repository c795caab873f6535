// The messages surface forwards the body byte for byte, keeps the query string, forwards version and
// beta headers verbatim, swaps credentials, and returns the provider's useful headers.
import t from 'tap';
import { startHarness, UPSTREAM_KEY } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

t.test('byte-identical forwarding', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  // Odd key order, whitespace, unicode escapes and a field the gateway does not know.
  const body = '{\n  "messages" : [ {"content":"caf\\u00e9  ☕","role":"user"} ],\t"max_tokens":32,\n"model":"claude-sonnet-4-6" , "metadata":{"user_id":"u-1"}   }\n';
  const res = await call(`${h.url}/gateway/v1/messages?beta=true`, {
    body,
    headers: {
      'x-api-key': key,
      authorization: 'Bearer should-not-leave',
      cookie: 'session=secret',
      'content-type': 'application/json',
      'vendor-version': '2023-06-01',
      'anthropic-beta': 'tools-2024-04-04,prompt-caching-2024-07-31',
      'x-gateway-strict': 'true',
      'x-custom-client-header': 'kept',
    },
  });
  t.equal(res.status, 200, res.text);
  const seen = h.simulator.received.at(-1)!;
  t.equal(seen.body.toString('utf8'), body, 'upstream received exactly the client bytes');
  t.equal(seen.url, '/v1/messages?beta=true', 'path mapped, query string kept');
  t.equal(seen.headers['anthropic-version'], '2023-06-01', 'vendor-version arrives as anthropic-version');
  t.equal(seen.headers['anthropic-beta'], 'tools-2024-04-04,prompt-caching-2024-07-31', 'beta header verbatim');
  t.equal(seen.headers['x-api-key'], UPSTREAM_KEY);
  t.notOk(seen.headers.authorization);
  t.notOk(seen.headers.cookie);
  t.notOk(seen.headers['x-gateway-strict'], "the gateway's own headers stay here");
  t.notOk(seen.headers['vendor-version']);
  t.equal(seen.headers['x-custom-client-header'], 'kept');
  t.ok(res.headers['x-request-id'], 'gateway request id');
  t.ok(res.headers['request-id'], 'request-id present');
  // The shared upstream account's limits say how busy other tenants keep it (see SECURITY.md).
  t.equal(res.headers['anthropic-ratelimit-requests-limit'], undefined, "the upstream account's rate-limit headers stay here");
});

t.test('the client version header is forwarded as it came; default only when absent', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
  await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key, { 'anthropic-version': '2026-09-01' }) });
  t.equal(h.simulator.received.at(-1)!.headers['anthropic-version'], '2026-09-01');
  await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  t.equal(h.simulator.received.at(-1)!.headers['anthropic-version'], '2023-06-01');
});

t.test('streamed bytes pass through unchanged', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const direct = async (path: string, body: string, headers: Record<string, string>) => call(`${h.simulator.url}${path}`, { body, headers });
  const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'same bytes please' }] });
  const viaGateway = await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  const fromSimulator = await direct('/v1/messages', body, { 'x-api-key': UPSTREAM_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
  t.equal(viaGateway.status, 200);
  t.match(String(viaGateway.headers['content-type']), /^text\/event-stream/);
  // Message and tool ids are random per response: compare with them normalised.
  const norm = (s: string) => s.replace(/"(msg|toolu|req)_[A-Za-z0-9]+"/g, '"$1_X"');
  t.equal(norm(viaGateway.text), norm(fromSimulator.text), 'the SSE stream is the provider stream, byte for byte');
});
