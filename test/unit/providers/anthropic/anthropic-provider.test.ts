// The anthropic provider type: its requests (paths, credential, the client's headers, the model a
// route names) and what it keeps out of error bodies.
import t from 'tap';
import type { Test } from 'tap';
import { createAnthropicProvider } from '../../../../src/providers/anthropic/anthropic-provider.js';
import type { ProviderCall } from '../../../../src/providers/provider.js';
import type { ReplayableRequest } from '../../../../src/upstream/client.js';

const options = { connections: 1, connectTimeoutMs: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000 };
const KEY = 'sk-upstream-secret-0123456789';

function provider(t: Test) {
  const p = createAnthropicProvider('acct-a', { baseUrl: 'http://127.0.0.1:9', apiKey: KEY }, options);
  t.teardown(() => p.close());
  return p;
}

function call(over: Partial<ProviderCall> = {}): ProviderCall {
  return {
    operation: 'messages',
    body: '{"model":"claude-sonnet-4-6","max_tokens":5}',
    forwarded: true,
    bodyModel: 'claude-sonnet-4-6',
    model: 'claude-sonnet-4-6',
    modelNamed: false,
    stream: false,
    query: '',
    incoming: { 'x-api-key': 'gateway-key', authorization: 'Bearer gw', 'anthropic-beta': 'x', 'anthropic-version': '2023-06-01' },
    ...over,
  };
}

t.test('each operation at its path, the query kept; the client credential replaced by the account key', async (t) => {
  const p = provider(t);
  const messages = p.request(call({ query: '?beta=true' })) as ReplayableRequest;
  t.equal(messages.path, '/v1/messages?beta=true');
  t.equal(messages.headers['x-api-key'], KEY, 'the client credential is replaced');
  t.equal(messages.headers.authorization, undefined);
  t.equal(messages.headers['anthropic-beta'], 'x');
  t.equal(messages.body, call().body, 'the body as it came');
  const count = p.request(call({ operation: 'count_tokens' })) as ReplayableRequest;
  t.equal(count.path, '/v1/messages/count_tokens');
  const built = p.request(call({ forwarded: false })) as ReplayableRequest;
  t.equal(built.headers['x-api-key'], KEY);
  t.equal(built.headers['content-type'], 'application/json');
  t.equal(p.type, 'anthropic');
  t.equal(p.genAiProvider, 'anthropic');
  t.equal(p.streamDecoder(), null, 'its streams are already the dialect SSE');
});

t.test("a route naming the account's own id for the model rewrites the body's model, and only it", async (t) => {
  const p = provider(t);
  const body = '{"model":"claude-sonnet-4-6", "max_tokens":5}';
  const renamed = p.request(call({ body, model: 'claude-sonnet-4-6-eu', modelNamed: true })) as ReplayableRequest;
  t.equal(String(renamed.body), '{"model":"claude-sonnet-4-6-eu", "max_tokens":5}');
  const same = p.request(call({ body, model: 'claude-sonnet-4-6', modelNamed: true })) as ReplayableRequest;
  t.equal(same.body, body, 'the same model: the body untouched');
  const unnamed = p.request(call({ body, bodyModel: 'sonnet-alias', model: 'claude-sonnet-4-6' })) as ReplayableRequest;
  t.equal(unnamed.body, body, 'a route that names no model forwards the name the client used');
});

t.test('the account key is scrubbed from error bodies', async (t) => {
  const p = provider(t);
  const scrubbed = p.scrubCredential(Buffer.from(`{"error":"bad key ${KEY}"}`)).toString();
  t.notMatch(scrubbed, /sk-upstream-secret/);
});
