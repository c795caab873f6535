// Request bodies stream through the proxy; the gateway's own size limit still answers in its shape,
// even when it refuses a body before reading it.
import t from 'tap';
import { call } from '../../helpers/http.js';
import { ECHO_PATH, probeRoutes } from './fixtures/gateway-routes.js';
import { proxiedGateway } from './fixtures/proxy.js';

const LIMIT = 1024 * 1024;

t.test('large bodies', async (t) => {
  const probe = probeRoutes(() => 'unused');
  const { p } = await proxiedGateway(t, { env: { GATEWAY_MAX_BODY_BYTES: String(LIMIT) }, extraRoutes: () => probe.routes });

  t.test('a body of several MiB arrives whole', async (t) => {
    const body = JSON.stringify({ text: 'x'.repeat(6 * LIMIT) });
    const res = await call(`${p.url}${ECHO_PATH}`, { body, headers: { 'content-type': 'application/json' } });
    t.equal(res.status, 200);
    t.equal(probe.seen.at(-1)!.body.length, body.length);
    t.ok(probe.seen.at(-1)!.body === body, 'byte for byte');
  });

  t.test('over the gateway limit: its 413 in the surface shape, not a 502', async (t) => {
    const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'x'.repeat(4 * LIMIT) }] });
    const messages = await call(`${p.url}/v1/messages`, { body, headers: { 'content-type': 'application/json' } });
    t.equal(messages.status, 413);
    t.equal(messages.json().error.type, 'request_too_large');
    const chat = await call(`${p.url}/v1/chat/completions`, { body, headers: { 'content-type': 'application/json' } });
    t.equal(chat.status, 413);
    t.equal(chat.json().error.code, 'request_too_large');
  });
});
