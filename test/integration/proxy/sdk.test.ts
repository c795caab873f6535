// Both official SDKs, given only the proxy's base URL and a placeholder key, through proxy → gateway →
// simulator: streaming and not, models lists and count_tokens.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import t from 'tap';
import { UPSTREAM_KEY } from '../../helpers/harness.js';
import { proxiedGateway, secretOf } from './fixtures/proxy.js';

const MODEL = 'claude-sonnet-4-6';
const CLIENT_KEY = 'sk-client-own-credential-must-not-travel';

t.test('official SDKs through the local proxy', async (t) => {
  const { h, key, p } = await proxiedGateway(t);
  const anthropic = new Anthropic({ apiKey: CLIENT_KEY, baseURL: p.url, maxRetries: 0 });
  const openai = new OpenAI({ apiKey: CLIENT_KEY, baseURL: `${p.url}/v1`, maxRetries: 0 });
  const lastUpstream = () => h.simulator.received.at(-1)!;

  t.test('Anthropic SDK: messages.create', async (t) => {
    const msg = await anthropic.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Hello proxy' }] });
    t.equal(msg.type, 'message');
    t.match((msg.content[0] as { text: string }).text, /Hello proxy/);
    const seen = lastUpstream();
    t.equal(seen.url, '/v1/messages');
    t.equal(seen.headers['x-api-key'], UPSTREAM_KEY, 'the upstream sees the upstream credential');
    t.notOk(seen.headers.authorization, 'no bearer travels upstream');
  });

  t.test('Anthropic SDK: messages.stream', async (t) => {
    const stream = anthropic.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Stream through the proxy' }] });
    let text = '';
    stream.on('text', (d) => {
      text += d;
    });
    const final = await stream.finalMessage();
    t.equal(final.stop_reason, 'end_turn');
    t.equal((final.content[0] as { text: string }).text, text);
    t.match(text, /Stream through the proxy/);
  });

  t.test('Anthropic SDK: countTokens and models.list', async (t) => {
    const counted = await anthropic.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'count me' }] });
    t.ok(counted.input_tokens > 0);
    t.equal(lastUpstream().url.split('?')[0], '/v1/messages/count_tokens');
    const ids: string[] = [];
    for await (const m of anthropic.models.list()) ids.push(m.id);
    t.ok(ids.includes(MODEL), 'the messages surface lists models in the provider shape');
  });

  t.test('OpenAI SDK: chat.completions.create, streamed and not', async (t) => {
    const res = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi from openai' }] });
    t.equal(res.object, 'chat.completion');
    t.match(res.choices[0]!.message.content, /Hi from openai/);
    t.equal(lastUpstream().headers['x-api-key'], UPSTREAM_KEY);
    const stream = await openai.chat.completions.create({ model: MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hi from openai' }] });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    t.equal(text, res.choices[0]!.message.content, 'the same text streamed and not');
    t.same(usage, res.usage, 'the same usage streamed and not');
  });

  t.test('OpenAI SDK: models.list is the chat surface list', async (t) => {
    const ids: string[] = [];
    for await (const m of openai.models.list()) {
      t.equal(m.object, 'model');
      ids.push(m.id);
    }
    t.ok(ids.includes(MODEL));
  });

  t.test('the client credential never leaves the proxy; the key never reaches its log', async (t) => {
    t.ok(h.simulator.received.length >= 6);
    for (const r of h.simulator.received) {
      const all = JSON.stringify(r.headers) + r.body.toString('utf8');
      t.notMatch(all, CLIENT_KEY, `${r.url}: no client credential upstream`);
      t.notMatch(all, secretOf(key), `${r.url}: no gateway key upstream`);
    }
    const log = p.logText();
    t.match(log, '"level":20', 'the proxy logged at debug');
    t.notMatch(log, secretOf(key));
    t.notMatch(log, CLIENT_KEY);
  });
});
