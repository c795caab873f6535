// The official openai SDK against {gateway}/gateway/openai/v1, with the simulator upstream.
import OpenAI from 'openai';
import t from 'tap';
import { statusOfRejection } from '../../helpers/http.js';
import { startHarness } from '../../helpers/harness.js';

const MODEL = 'claude-sonnet-4-6';
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

t.test('openai SDK through the chat-completions surface', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const client = new OpenAI({ apiKey: key, baseURL: `${h.url}/gateway/openai/v1`, maxRetries: 0 });
  const lastUpstreamBody = () => JSON.parse(h.simulator.received.at(-1)!.body.toString('utf8'));

  t.test('non-stream', async (t) => {
    const res = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: 'Answer in English.' },
        { role: 'user', content: 'Hello gateway' },
      ],
    });
    t.equal(res.object, 'chat.completion');
    t.equal(res.model, MODEL);
    t.equal(res.choices[0]!.finish_reason, 'stop');
    t.match(res.choices[0]!.message.content, /Hello gateway/);
    t.ok(res.usage!.prompt_tokens > 0 && res.usage!.completion_tokens > 0);
    t.equal(res.usage!.total_tokens, res.usage!.prompt_tokens + res.usage!.completion_tokens);
    const sent = lastUpstreamBody();
    t.same(sent.system, [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Answer in English.' }], 'system and developer hoisted in order');
    t.equal(sent.max_tokens, 4096, 'catalogue default max_tokens');
  });

  t.test('stream with delta.content and include_usage', async (t) => {
    const stream = await client.chat.completions.create({ model: MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'stream this' }] });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    const ids = new Set<string>();
    let finish: string | null = null;
    for await (const chunk of stream) {
      ids.add(chunk.id);
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (choice?.delta.content) text += choice.delta.content;
      if (choice?.finish_reason) finish = choice.finish_reason;
    }
    t.match(text, /stream this/);
    t.equal(finish, 'stop');
    t.equal(ids.size, 1, 'one id for every chunk');
    t.ok(usage && usage.completion_tokens > 0, 'the final usage chunk arrived');
    const plain = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'stream this' }] });
    t.same(usage, plain.usage, 'usage is identical streamed and not');
    t.equal(text, plain.choices[0]!.message.content, 'the same text streamed and not');
  });

  t.test('tools: a full round trip', async (t) => {
    const first = await client.chat.completions.create({ model: MODEL, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    t.equal(first.choices[0]!.finish_reason, 'tool_calls');
    const calls = first.choices[0]!.message.tool_calls!;
    t.equal(calls.length, 1);
    const call = calls[0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    t.equal(call.function.name, 'get_weather');
    const args = JSON.parse(call.function.arguments);
    t.type(args.city, 'string');
    const second = await client.chat.completions.create({
      model: MODEL,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 C' },
      ],
    });
    t.equal(second.choices[0]!.finish_reason, 'stop');
    const sent = lastUpstreamBody();
    t.equal(sent.messages[1].content.at(-1).type, 'tool_use');
    t.equal(sent.messages[1].content.at(-1).id, call.id);
    t.same(sent.messages[2].content[0], { type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21 C' });
  });

  t.test('streamed tool-call arguments reassembled by the SDK stream helper', async (t) => {
    const runner = client.chat.completions.stream({ model: MODEL, tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } }, messages: [{ role: 'user', content: 'Weather?' }] });
    const final = await runner.finalChatCompletion();
    const call = final.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    t.equal(call.function.name, 'get_weather');
    t.same(JSON.parse(call.function.arguments), { city: 'example' });
    t.equal(final.choices[0]!.finish_reason, 'tool_calls');
    t.same(lastUpstreamBody().tool_choice, { type: 'tool', name: 'get_weather' });
  });

  t.test('images: data URL and http URL', async (t) => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const res = await client.chat.completions.create({
      model: MODEL,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png}`, detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });
    t.equal(res.choices[0]!.finish_reason, 'stop');
    const content = lastUpstreamBody().messages[0].content;
    t.same(content[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } });
    t.same(content[2], { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } });
  });

  t.test('stop sequences', async (t) => {
    const res = await client.chat.completions.create({ model: MODEL, stop: ['Hello'], messages: [{ role: 'user', content: 'say Hello please' }] });
    t.same(lastUpstreamBody().stop_sequences, ['Hello']);
    t.equal(res.choices[0]!.finish_reason, 'stop');
    const status = await statusOfRejection(client.chat.completions.create({ model: MODEL, stop: ['a', 'b', 'c', 'd', 'e'], messages: [{ role: 'user', content: 'x' }] }));
    t.equal(status, 400, 'more than 4 stop sequences is a 400');
  });

  t.test('ignored fields are accepted with 200 and listed in the warnings header', async (t) => {
    const { data, response } = await client.chat.completions
      .create({
        model: MODEL,
        messages: [{ role: 'user', content: 'ignore things' }],
        n: 1,
        logprobs: true,
        response_format: { type: 'json_object' },
        presence_penalty: 0.5,
        frequency_penalty: 0.5,
        seed: 7,
        temperature: 1.6,
      })
      .withResponse();
    t.equal(data.choices.length, 1);
    const warnings = response.headers.get('x-gateway-translation-warnings') ?? '';
    for (const f of ['logprobs', 'response_format', 'presence_penalty', 'frequency_penalty', 'seed']) t.match(warnings, f);
    t.match(warnings, 'temperature_clamped');
    const sent = lastUpstreamBody();
    t.equal(sent.temperature, 1, 'temperature above 1 is clamped, never sent as is');
    for (const f of ['n', 'logprobs', 'response_format', 'presence_penalty', 'frequency_penalty', 'seed']) t.notOk(f in sent, `${f} not sent upstream`);
  });

  t.test('x-gateway-strict turns changes into 400s', async (t) => {
    const strict = new OpenAI({ apiKey: key, baseURL: `${h.url}/gateway/openai/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-strict': 'true' } });
    t.equal(await statusOfRejection(strict.chat.completions.create({ model: MODEL, seed: 1, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })), 400);
  });

  t.test('models list: only the models the key may use', async (t) => {
    const all = await client.models.list();
    t.ok(all.data.some((m) => m.id === MODEL));
    const limited = await h.createKey({ models: ['claude-haiku-4-5-20251001'] });
    const limitedClient = new OpenAI({ apiKey: limited.key, baseURL: `${h.url}/gateway/openai/v1`, maxRetries: 0 });
    const page = await limitedClient.models.list();
    t.same(page.data.map((m) => m.id), ['claude-haiku-4-5-20251001']);
    t.same(Object.keys(page.data[0]!).sort(), ['created', 'id', 'object', 'owned_by']);
  });
});
