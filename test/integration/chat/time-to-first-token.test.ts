// Time to first token is taken at the first content, not at the provider's ping or the role chunk that
// come before it. The upstream here sends message_start, content_block_start and a ping at once, and
// the first text delta 300 ms later.
import type { ServerResponse } from 'node:http';
import t from 'tap';
import { startHarness, UPSTREAM_KEY } from '../../helpers/harness.js';
import { startServer } from '../../helpers/http-server.js';

const DELAY_MS = 300;

function event(res: ServerResponse, payload: Record<string, unknown>): void {
  res.write(`event: ${String(payload.type)}\ndata: ${JSON.stringify(payload)}\n\n`);
}

async function ttftSum(url: string, surface: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('model_gateway_time_to_first_token_seconds_sum') && l.includes(`surface="${surface}"`));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

t.test('chat and messages streams measure the first token, not the ping', async (t) => {
  const upstream = await startServer(t, (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const usage = { input_tokens: 3, output_tokens: 1 };
    event(res, { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, usage } });
    event(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    event(res, { type: 'ping' });
    setTimeout(() => {
      event(res, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } });
      event(res, { type: 'content_block_stop', index: 0 });
      event(res, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } });
      event(res, { type: 'message_stop' });
      res.end();
    }, DELAY_MS);
  });
  const h = await startHarness({ env: { ANTHROPIC_BASE_URL: upstream.url, ANTHROPIC_API_KEY: UPSTREAM_KEY } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${h.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers }, body: JSON.stringify(body) });
    t.equal(res.status, 200, path);
    return res.text();
  };
  const ask = { model: 'claude-sonnet-4-6', max_tokens: 8, stream: true, messages: [{ role: 'user', content: 'hi' }] };
  t.match(await post('/gateway/openai/v1/chat/completions', ask), /"content":"Hi"/);
  t.match(await post('/gateway/v1/messages', ask, { 'anthropic-version': '2023-06-01' }), /text_delta/);

  const floor = (DELAY_MS * 0.8) / 1000;
  t.ok((await ttftSum(h.url, 'chat')) >= floor, 'chat: taken at the text delta');
  t.ok((await ttftSum(h.url, 'messages')) >= floor, 'messages: the same rule');
});
