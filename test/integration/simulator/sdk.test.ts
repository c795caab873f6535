// The official SDK against the simulator over real HTTP: if the SDK is happy, the shapes are right.
import Anthropic, { APIError } from '@anthropic-ai/sdk';
import t from 'tap';
import { startSimulator, type Simulator } from '../../../src/apps/simulator/index.js';

const KEY = 'sk-sim-test';
let sim: Simulator;
let client: Anthropic;

t.before(async () => {
  sim = await startSimulator({ apiKey: KEY });
  client = new Anthropic({ apiKey: KEY, baseURL: sim.url, maxRetries: 0 });
});
t.teardown(() => sim.close());

const MODEL = 'claude-sonnet-4-6';
const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
};

t.test('messages.create returns a text reply with usage and the request id', async (t) => {
  const msg = await client.messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hello simulator' }] });
  t.equal(msg.type, 'message');
  t.equal(msg.model, MODEL);
  t.match(msg.id, /^msg_/);
  t.equal(msg.stop_reason, 'end_turn');
  t.match(msg.content[0], { type: 'text', text: /^You said: Hello simulator/ });
  t.equal(msg.usage.output_tokens, 12);
  t.ok(msg.usage.input_tokens > 0);
  t.match(msg._request_id, /^req_/);
});

t.test('messages.stream().finalMessage() equals the non-streamed reply', async (t) => {
  const params = { model: MODEL, max_tokens: 100, stop_sequences: ['is all'], messages: [{ role: 'user' as const, content: 'Stream please' }] };
  const plain = await client.messages.create(params);
  const stream = client.messages.stream(params);
  const deltas: string[] = [];
  stream.on('text', (d) => deltas.push(d));
  const final = await stream.finalMessage();
  t.same(final.content, plain.content);
  t.equal(final.stop_reason, 'stop_sequence');
  t.equal(final.stop_sequence, 'is all');
  t.same(final.usage.output_tokens, plain.usage.output_tokens);
  t.same(final.usage.input_tokens, plain.usage.input_tokens);
  t.ok(deltas.length > 1, 'text arrived in several deltas');
});

t.test('tools: a tool_use reply with parsed input, streamed or not', async (t) => {
  const params = { model: MODEL, max_tokens: 200, tools: [WEATHER], messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
  const msg = await client.messages.create(params);
  t.equal(msg.stop_reason, 'tool_use');
  const tool = msg.content.find((b) => b.type === 'tool_use');
  t.match(tool, { type: 'tool_use', name: 'get_weather', id: /^toolu_/, input: { city: 'example', days: 1 } });
  const final = await client.messages.stream(params).finalMessage();
  t.match(final.content.find((b) => b.type === 'tool_use'), { name: 'get_weather', input: { city: 'example', days: 1 } });
  if (tool?.type !== 'tool_use') return;
  const next = await client.messages.create({
    ...params,
    messages: [
      ...params.messages,
      { role: 'assistant', content: msg.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: tool.id, content: 'Sunny and warm' }] },
    ],
  });
  t.equal(next.stop_reason, 'end_turn');
  t.match(next.content[0], { type: 'text', text: /^The tool returned: Sunny and warm/ });
});

t.test('thinking round trip: the signed block goes back and is accepted', async (t) => {
  const params = { model: MODEL, max_tokens: 2048, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: [WEATHER] };
  const first = await client.messages.stream({ ...params, messages: [{ role: 'user', content: 'Weather?' }] }).finalMessage();
  t.equal(first.content[0].type, 'thinking');
  const tool = first.content.find((b) => b.type === 'tool_use');
  if (tool?.type !== 'tool_use') throw new Error('no tool call');
  const messages: Anthropic.MessageParam[] = [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: first.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: tool.id, content: 'Rain' }] },
  ];
  const second = await client.messages.create({ ...params, messages });
  t.equal(second.stop_reason, 'end_turn');
  const withoutThinking = messages.map((m) => (m.role === 'assistant' && Array.isArray(m.content) ? { ...m, content: m.content.filter((b) => b.type !== 'thinking') } : m));
  await t.rejects(client.messages.create({ ...params, messages: withoutThinking }), Anthropic.BadRequestError);
});

t.test('models.list pages through every model, newest first; retrieve resolves one', async (t) => {
  const ids: string[] = [];
  for await (const m of client.models.list({ limit: 1 })) ids.push(m.id);
  t.same(ids, ['claude-opus-4-7', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001']);
  const page = await client.models.list({ limit: 2 });
  t.equal(page.data.length, 2);
  t.ok(page.hasNextPage());
  const one = await client.models.retrieve('claude-haiku-4-5-20251001');
  t.equal(one.display_name, 'Claude Haiku 4.5');
});

t.test('count_tokens gives the same input estimate as a reply', async (t) => {
  const messages = [{ role: 'user' as const, content: 'Count these words for me, please.' }];
  const counted = await client.messages.countTokens({ model: MODEL, messages, system: 'Be brief.' });
  const msg = await client.messages.create({ model: MODEL, max_tokens: 10, messages, system: 'Be brief.' });
  t.equal(counted.input_tokens, msg.usage.input_tokens);
});

t.test('errors surface as the SDK error classes with the right status', async (t) => {
  const base = { model: MODEL, max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
  const bad = await client.messages.create({ ...base, temperature: 2 } as Anthropic.MessageCreateParamsNonStreaming).catch((e: unknown) => e);
  t.type(bad, Anthropic.BadRequestError);
  t.match(bad, { status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message: 'temperature: Input should be less than or equal to 1' } } });
  t.match((bad as APIError).requestID, /^req_/);

  const wrongKey = new Anthropic({ apiKey: 'sk-wrong', baseURL: sim.url, maxRetries: 0 });
  await t.rejects(wrongKey.messages.create(base), Anthropic.AuthenticationError);
  await t.rejects(client.messages.create({ ...base, model: 'claude-nope' }), Anthropic.NotFoundError);

  sim.injectFault({ kind: 'status', status: 429, retryAfter: 7 });
  const limited = await client.messages.create(base).catch((e: unknown) => e);
  t.type(limited, Anthropic.RateLimitError);
  t.equal((limited as APIError).headers?.get('retry-after'), '7');

  sim.injectFault({ kind: 'status', status: 529 });
  const overloaded = await client.messages.create(base).catch((e: unknown) => e);
  t.type(overloaded, Anthropic.InternalServerError);
  t.match(overloaded, { status: 529, error: { error: { type: 'overloaded_error' } } });

  sim.injectFault({ kind: 'error-event', afterEvents: 3 });
  const midStream = await client.messages.stream(base).finalMessage().catch((e: unknown) => e);
  t.type(midStream, Anthropic.APIError);
  t.match(midStream, { error: { error: { type: 'overloaded_error' } } });

  sim.injectFault({ kind: 'reset-before-headers' });
  await t.rejects(client.messages.create(base), Anthropic.APIConnectionError);
});
