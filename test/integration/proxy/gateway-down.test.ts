// The gateway goes away and comes back: each surface gets a 502 in its own shape meanwhile, the proxy
// recovers by itself, and a stream cut between the proxy and the gateway ends with a final error event.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import t from 'tap';
import { call } from '../../helpers/http.js';
import type { Harness } from '../../helpers/harness.js';
import { waitFor } from '../../helpers/wait.js';
import { listen } from '../../../src/gateway/server.js';
import { proxiedGateway, secretOf } from './fixtures/proxy.js';

const MODEL = 'claude-sonnet-4-6';
const messagesBody = JSON.stringify({ model: MODEL, max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] });
const chatBody = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
const json = { 'content-type': 'application/json' };

async function stopGateway(h: Harness): Promise<void> {
  h.server.closeAllConnections();
  await new Promise<void>((r) => h.server.close(() => r()));
}

t.test('gateway down → 502 in each surface shape → recovery', async (t) => {
  const { h, key, p } = await proxiedGateway(t);
  const anthropic = new Anthropic({ apiKey: 'placeholder', baseURL: p.url, maxRetries: 0 });
  const openai = new OpenAI({ apiKey: 'placeholder', baseURL: `${p.url}/v1`, maxRetries: 0 });

  t.equal((await call(`${p.url}/v1/messages`, { body: messagesBody, headers: json })).status, 200, 'up: a keep-alive connection is open');
  await stopGateway(h);

  const messages = await call(`${p.url}/v1/messages`, { body: messagesBody, headers: json });
  t.equal(messages.status, 502);
  t.same(Object.keys(messages.json()).sort(), ['error', 'type']);
  t.equal(messages.json().type, 'error');
  t.equal(messages.json().error.type, 'api_error');
  t.ok(messages.headers['request-id']);
  t.notMatch(messages.text, String(h.port), 'the message does not name the gateway');

  const chat = await call(`${p.url}/v1/chat/completions`, { body: chatBody, headers: json });
  t.equal(chat.status, 502);
  t.same(chat.json().error, { message: chat.json().error.message, type: 'api_error', param: null, code: 'upstream_error' });

  const modelsViaAnthropic = await call(`${p.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } });
  t.equal(modelsViaAnthropic.json().type, 'error', 'GET /v1/models with the version header: messages shape');
  const modelsViaOpenai = await call(`${p.url}/gateway/openai/v1/models`);
  t.equal(modelsViaOpenai.json().error.code, 'upstream_error', 'the gateway path: chat shape');

  const anthropicError = await anthropic.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
  t.type(anthropicError, Anthropic.APIError);
  t.equal((anthropicError as InstanceType<typeof Anthropic.APIError>).status, 502, 'the Anthropic SDK sees a 502 APIError');
  const openaiError = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
  t.type(openaiError, OpenAI.APIError);
  t.equal((openaiError as InstanceType<typeof OpenAI.APIError>).status, 502, 'the OpenAI SDK sees a 502 APIError');

  await listen(h.server, h.port, '127.0.0.1');
  const back = await anthropic.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'back again' }] });
  t.equal(back.type, 'message', 'recovered without restarting the proxy');
  const backChat = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'back again' }] });
  t.equal(backChat.object, 'chat.completion');

  const log = p.logText();
  t.match(log, 'the gateway cannot be reached', 'the outage is logged once');
  t.match(log, 'the gateway answers again', 'and so is the recovery');
  t.notMatch(log, secretOf(key));
});

t.test('a stream that the gateway cuts ends with a final error event in the surface shape', async (t) => {
  const { h, p } = await proxiedGateway(t);

  for (const [path, body, format] of [
    ['/v1/messages', JSON.stringify({ model: MODEL, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'cut me' }] }), 'messages'],
    ['/v1/chat/completions', JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'cut me' }] }), 'chat'],
  ] as const) {
    h.simulator.injectFault({ kind: 'stall-mid-stream', afterEvents: 3 });
    const res = await fetchStream(`${p.url}${path}`, body);
    t.equal(res.status, 200, path);
    // The first events arrive while the upstream stream is stalled: nothing is held back on the way.
    await res.readUntil(format === 'messages' ? 'content_block_start' : '"role":"assistant"');
    h.server.closeAllConnections();
    const rest = await res.readToEnd();
    if (format === 'messages') {
      t.match(rest, /event: error\ndata: \{"type":"error","error":\{"type":"api_error"/, 'a final messages error event');
    } else {
      t.match(rest, /data: \{"error":\{"message":"[^"]+","type":"api_error","param":null,"code":"upstream_stream_interrupted"\}\}\n\ndata: \[DONE\]\n\n$/, 'a final chat error chunk, then [DONE]');
    }
    h.simulator.clearFaults();
  }
});

t.test('a stream cut after it ended whole gets nothing appended', async (t) => {
  const { h, p } = await proxiedGateway(t);

  for (const [path, body, last] of [
    ['/v1/messages', JSON.stringify({ model: MODEL, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'cut me late' }] }), 'data: {"type":"message_stop"}\n\n'],
    ['/v1/chat/completions', JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'cut me late' }] }), 'data: [DONE]\n\n'],
  ] as const) {
    // Every event is sent, then the provider's stream stalls: the gateway has relayed the whole answer
    // and is still waiting for the provider to end it when its connection to the proxy breaks.
    h.simulator.injectFault({ kind: 'stall-mid-stream', afterEvents: 10_000 });
    const res = await fetchStream(`${p.url}${path}`, body);
    t.equal(res.status, 200, path);
    const received = await res.readUntil(last);
    t.ok(received.endsWith(last), `${path}: the whole answer arrived`);
    h.server.closeAllConnections();
    t.equal(await res.readToEnd(), '', `${path}: nothing after it`);
    h.simulator.clearFaults();
  }
});

t.test('a client that goes away aborts the gateway call', async (t) => {
  const { h, p } = await proxiedGateway(t);
  h.simulator.injectFault({ kind: 'stall-mid-stream', afterEvents: 2 });
  const res = await fetchStream(`${p.url}/v1/messages`, JSON.stringify({ model: MODEL, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'leave' }] }));
  await res.readUntil('message_start');
  res.abort();
  await waitFor(() => /"outcome":"client_cancelled"/.test(h.logText()), 10_000);
  t.pass('the gateway saw its client (the proxy) go away and recorded a cancelled request');
});

interface StreamReader {
  status: number;
  readUntil(marker: string): Promise<string>;
  readToEnd(): Promise<string>;
  abort(): void;
}

/** A streamed POST read incrementally, so a test can act between events. */
async function fetchStream(url: string, body: string): Promise<StreamReader> {
  const { request } = await import('undici');
  const controller = new AbortController();
  const res = await request(url, { method: 'POST', body, headers: json, signal: controller.signal });
  const iterator = res.body[Symbol.asyncIterator]();
  let seen = '';
  return {
    status: res.statusCode,
    async readUntil(marker) {
      while (!seen.includes(marker)) {
        const next = await iterator.next();
        if (next.done) throw new Error(`stream ended before ${marker}`);
        seen += (next.value as Buffer).toString('utf8');
      }
      return seen;
    },
    async readToEnd() {
      const start = seen.length;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return seen.slice(start);
        seen += (next.value as Buffer).toString('utf8');
      }
    },
    abort: () => controller.abort(),
  };
}
