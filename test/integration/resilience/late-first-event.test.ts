// A provider that answers its headers at once and its first event only later (a long prompt, a busy
// model): the client gets the gateway's headers at once too, not with the first event. (When the
// first events came with the provider's headers, the gateway's head goes out with them in one write.)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { request } from 'undici';
import { startHarness, UPSTREAM_KEY } from '../../helpers/harness.js';
import { bearer } from '../../helpers/http.js';

const FIRST_EVENT_AFTER_MS = 1500;

const EVENTS = [
  ['message_start', { type: 'message_start', message: { id: 'msg_late', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'late but here' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }],
  ['message_stop', { type: 'message_stop' }],
] as const;

t.test('headers reach the client before a late first event, on both surfaces', async (t) => {
  const provider = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.headers['x-api-key'] !== UPSTREAM_KEY) return res.writeHead(401).end();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_late' });
      res.flushHeaders();
      setTimeout(() => res.end(EVENTS.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('')), FIRST_EVENT_AFTER_MS);
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => provider.close(() => resolve())));
  const h = await startHarness({ env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}` } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();

  const surfaces = [
    { name: 'messages', path: '/gateway/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, text: /late but here/, end: /event: message_stop/ },
    { name: 'chat', path: '/gateway/openai/v1/chat/completions', headers: bearer(key), text: /"content":"late but here"/, end: /data: \[DONE\]\n\n$/ },
  ];
  for (const s of surfaces) {
    const started = performance.now();
    const res = await request(`${h.url}${s.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...s.headers },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const headersAfter = performance.now() - started;
    t.equal(res.statusCode, 200, s.name);
    t.match(String(res.headers['content-type']), /^text\/event-stream/);
    t.ok(headersAfter < FIRST_EVENT_AFTER_MS / 2, `${s.name}: headers after ${headersAfter.toFixed(0)} ms, not with the event at ${FIRST_EVENT_AFTER_MS} ms`);
    const body = await res.body.text();
    t.ok(performance.now() - started >= FIRST_EVENT_AFTER_MS - 50, `${s.name}: the body waited for the provider`);
    t.match(body, s.text);
    t.match(body, s.end, `${s.name}: the stream ends as it should`);
  }
});
