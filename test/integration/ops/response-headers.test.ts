// Every answer of every route carries the gateway's request id under both names, and the headers a
// stage adds on the way (served model, limits, retry-after, the dashboard's security headers) reach
// the client whichever stage answers: a success, a stream, a gateway error or an upstream error.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

const MODEL = 'claude-sonnet-4-6';

t.test('every route answers with its request id and the headers its stages added', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const { key: limited } = await h.createKey({ rpm: 1 });
  const chat = (body: unknown, k = key) => ({ method: 'POST', headers: bearer(k), body: JSON.stringify(body) });
  const messages = (body: unknown, k = key) => ({ method: 'POST', headers: bearer(k, { 'anthropic-version': '2023-06-01' }), body: JSON.stringify(body) });
  const chatBody = { model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 };
  const messagesBody = { model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 };

  const cases: Array<{ name: string; path: string; opts?: Parameters<typeof call>[1]; status: number; headers?: Record<string, RegExp>; providerAnswered?: boolean }> = [
    { name: 'liveness', path: '/healthz', status: 200 },
    { name: 'readiness', path: '/readyz', status: 200 },
    { name: 'chat models', path: '/gateway/openai/v1/models', opts: { headers: bearer(key) }, status: 200 },
    { name: 'messages models', path: '/gateway/v1/models', opts: { headers: bearer(key) }, status: 200 },
    { name: 'chat completion', path: '/gateway/openai/v1/chat/completions', opts: chat(chatBody), status: 200, headers: { 'x-gateway-model': /^claude-sonnet-4-6$/, 'content-type': /^application\/json/ } },
    { name: 'chat stream', path: '/gateway/openai/v1/chat/completions', opts: chat({ ...chatBody, stream: true }), status: 200, headers: { 'x-gateway-model': /./, 'content-type': /^text\/event-stream/ } },
    { name: 'chat translation warning', path: '/gateway/openai/v1/chat/completions', opts: chat({ ...chatBody, seed: 7 }), status: 200, headers: { 'x-gateway-translation-warnings': /field_ignored:seed/ } },
    { name: 'chat invalid body', path: '/gateway/openai/v1/chat/completions', opts: chat({ model: MODEL }), status: 400 },
    { name: 'chat missing key', path: '/gateway/openai/v1/chat/completions', opts: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, status: 401 },
    { name: 'messages', path: '/gateway/v1/messages', opts: messages(messagesBody), status: 200, providerAnswered: true, headers: { 'x-gateway-model': /./, 'content-type': /^application\/json/ } },
    { name: 'messages stream', path: '/gateway/v1/messages', opts: messages({ ...messagesBody, stream: true }), status: 200, providerAnswered: true, headers: { 'content-type': /^text\/event-stream/ } },
    { name: 'messages upstream refusal (no max_tokens)', path: '/gateway/v1/messages', opts: messages({ model: MODEL, messages: messagesBody.messages }), status: 400, providerAnswered: true, headers: { 'x-gateway-model': /^claude-sonnet-4-6$/ } },
    { name: 'messages unknown model', path: '/gateway/v1/messages', opts: messages({ ...messagesBody, model: 'no-such-model' }), status: 404 },
    { name: 'rate limit: first request passes with its limit headers', path: '/gateway/openai/v1/chat/completions', opts: chat(chatBody, limited), status: 200, headers: { 'x-ratelimit-limit-requests': /^1$/, 'x-ratelimit-remaining-requests': /^0$/ } },
    { name: 'rate limit: the second is refused', path: '/gateway/openai/v1/chat/completions', opts: chat(chatBody, limited), status: 429, headers: { 'retry-after': /^\d+$/, 'x-ratelimit-limit-requests': /^1$/ } },
    { name: 'dashboard page', path: '/dashboard/', status: 200, headers: { 'x-frame-options': /^DENY$/, 'content-security-policy': /default-src/ } },
    { name: 'admin API, signed out', path: '/admin/api/session', status: 401 },
  ];
  for (const c of cases) {
    const res = await call(`${h.url}${c.path}`, c.opts);
    t.equal(res.status, c.status, `${c.name}: status`);
    const id = res.headers['x-request-id'];
    t.match(id, /^req_[0-9a-f]{32}$/, `${c.name}: x-request-id`);
    // The messages surface passes the provider's own request-id back when the provider answered.
    if (c.providerAnswered) t.match(res.headers['request-id'], /^req_/, `${c.name}: request-id is the provider's`);
    else t.equal(res.headers['request-id'], id, `${c.name}: request-id is the gateway's`);
    for (const [name, pattern] of Object.entries(c.headers ?? {})) t.match(res.headers[name], pattern, `${c.name}: ${name}`);
  }
});
