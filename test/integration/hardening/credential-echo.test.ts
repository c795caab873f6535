// A provider that echoes the x-api-key it received in its error body must not hand the gateway's
// upstream credential to a client: both surfaces pass error bodies back without it.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { startServer } from '../../helpers/http-server.js';

const UPSTREAM_KEY = 'sk-ant-api03-echo_Test-Key-0123456789abcdefABCDEF';
const MODEL = 'claude-sonnet-4-6';
const ask = JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });

interface Reply {
  status: number;
  contentType: string;
  body: (key: string) => string;
}

t.test('upstream error bodies never carry the upstream credential', async (t) => {
  let reply: Reply | null = null;
  const received: string[] = [];
  const upstream = await startServer(t, (req, res) => {
    const key = String(req.headers['x-api-key'] ?? '');
    received.push(key);
    req.resume();
    req.on('end', () => {
      const r = reply ?? { status: 500, contentType: 'text/plain', body: () => 'no reply scripted' };
      res.writeHead(r.status, { 'content-type': r.contentType });
      res.end(r.body(key));
    });
  });
  const h = await startHarness({ env: { ANTHROPIC_BASE_URL: upstream.url, ANTHROPIC_API_KEY: UPSTREAM_KEY } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();

  const providerError = (type: string) => (k: string) =>
    JSON.stringify({ type: 'error', error: { type, message: `request with x-api-key ${k} refused; key "${k}" again` }, request_id: 'req_up_1' });
  const cases: Array<[string, Reply]> = [
    ['a JSON error body', { status: 400, contentType: 'application/json', body: providerError('invalid_request_error') }],
    ['a server error', { status: 529, contentType: 'application/json', body: providerError('overloaded_error') }],
    ['a proxy page that is not JSON', { status: 503, contentType: 'text/html', body: (k) => `<html><pre>x-api-key: ${k}\nx-api-key: ${k}</pre></html>` }],
  ];

  for (const [name, r] of cases) {
    reply = r;
    const before = received.length;
    const messages = await call(`${h.url}/gateway/v1/messages`, { body: ask, headers: bearer(key, { 'anthropic-version': '2023-06-01' }) });
    t.equal(received.length, before + 1, `${name}: the imitation answered the messages call`);
    t.equal(received[before], UPSTREAM_KEY, `${name}: ...and was sent the upstream credential`);
    t.equal(messages.status, r.status, `messages, ${name}: the upstream status`);
    t.notOk(messages.text.includes(UPSTREAM_KEY), `messages, ${name}: no credential in the body`);
    t.equal(messages.text, r.body('[redacted]'), `messages, ${name}: otherwise the upstream body, unchanged`);
    t.equal(Number(messages.headers['content-length']), Buffer.byteLength(messages.text), `messages, ${name}: content-length of the scrubbed body`);

    const chat = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: ask, headers: bearer(key) });
    t.equal(chat.status, r.status, `chat, ${name}: the upstream status`);
    t.notOk(chat.text.includes(UPSTREAM_KEY), `chat, ${name}: no credential in the translated body`);
    t.type(chat.json().error.message, 'string', `chat, ${name}: the chat error shape`);
    if (r.contentType === 'application/json') t.match(chat.json().error.message, /x-api-key \[redacted\] refused/, `chat, ${name}: the provider's message, scrubbed`);
  }
  t.notOk(h.logText().includes(UPSTREAM_KEY), 'nor in the logs');
});
