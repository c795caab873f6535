// The official Anthropic SDK, pointed at {gateway}/gateway, works as against the provider.
import Anthropic from '@anthropic-ai/sdk';
import t from 'tap';
import { statusOfRejection } from '../../helpers/http.js';
import { startHarness, UPSTREAM_KEY } from '../../helpers/harness.js';

const MODEL = 'claude-sonnet-4-6';

t.test('Anthropic SDK through the messages surface', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const viaXApiKey = new Anthropic({ apiKey: key, baseURL: `${h.url}/gateway`, maxRetries: 0 });
  const viaBearer = new Anthropic({ apiKey: null, authToken: key, baseURL: `${h.url}/gateway`, maxRetries: 0 });

  t.test('non-stream create with x-api-key', async (t) => {
    const msg = await viaXApiKey.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Hello there' }] });
    t.equal(msg.type, 'message');
    t.equal(msg.content[0]?.type, 'text');
    t.match((msg.content[0] as { text: string }).text, /Hello there/);
    t.equal(msg.stop_reason, 'end_turn');
    t.ok(msg.usage.input_tokens > 0);
    const seen = h.simulator.received.at(-1)!;
    t.equal(seen.headers['x-api-key'], UPSTREAM_KEY, 'upstream sees the upstream credential');
    t.notOk(seen.headers.authorization, 'no client credential upstream');
  });

  t.test('non-stream create with Authorization: Bearer', async (t) => {
    const msg = await viaBearer.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Bearer works' }] });
    t.equal(msg.role, 'assistant');
    t.equal(h.simulator.received.at(-1)!.headers['x-api-key'], UPSTREAM_KEY);
  });

  t.test('messages.stream() and finalMessage()', async (t) => {
    const stream = viaXApiKey.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Stream me' }] });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    t.equal(final.stop_reason, 'end_turn');
    t.equal((final.content[0] as { text: string }).text, text, 'deltas add up to the final text');
    t.ok(final.usage.output_tokens > 0);
  });

  t.test('tools: a tool_use reply with parsed input, streamed and not', async (t) => {
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather for a city',
        input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];
    const msg = await viaXApiKey.messages.create({ model: MODEL, max_tokens: 256, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    t.equal(msg.stop_reason, 'tool_use');
    const call = msg.content.find((b) => b.type === 'tool_use') as { name: string; input: { city: string } };
    t.equal(call.name, 'get_weather');
    t.type(call.input.city, 'string');
    const streamed = await viaXApiKey.messages.stream({ model: MODEL, max_tokens: 256, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] }).finalMessage();
    const streamedCall = streamed.content.find((b) => b.type === 'tool_use') as { input: unknown };
    t.same(streamedCall.input, call.input, 'streamed input_json_delta pieces reassemble to the same input');
  });

  t.test('count_tokens and models', async (t) => {
    const count = await viaXApiKey.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'count me' }] });
    t.ok(count.input_tokens > 0);
    const models = [];
    for await (const m of viaXApiKey.models.list()) models.push(m.id);
    t.ok(models.includes(MODEL));
  });

  t.test('errors surface as the SDK error classes', async (t) => {
    const bad = new Anthropic({ apiKey: 'mgw_nope_nope', baseURL: `${h.url}/gateway`, maxRetries: 0 });
    t.equal(await statusOfRejection(bad.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })), 401);
    t.equal(await statusOfRejection(viaXApiKey.messages.create({ model: 'no-such-model', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })), 404);
    t.equal(await statusOfRejection(viaXApiKey.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: '' }] })), 400);
  });
});
