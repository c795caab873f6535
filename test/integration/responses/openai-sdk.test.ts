// The official openai SDK's Responses API (`responses.create`, `responses.stream`) against
// {gateway}/gateway/openai/v1, with the simulator upstream.
import OpenAI from 'openai';
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';

const MODEL = 'claude-sonnet-4-6';
const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather for a city',
  strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

t.test('openai SDK through the Responses surface', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const client = new OpenAI({ apiKey: key, baseURL: `${h.url}/gateway/openai/v1`, maxRetries: 0 });
  const lastUpstreamBody = () => JSON.parse(h.simulator.received.at(-1)!.body.toString('utf8'));

  t.test('non-stream: instructions, developer and system messages become the system prompt in order', async (t) => {
    const res = await client.responses.create({
      model: MODEL,
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Answer in English.' },
        { role: 'system', content: [{ type: 'input_text', text: 'No emoji.' }] },
        { role: 'user', content: 'Hello gateway' },
      ],
    });
    t.match(res.id, /^resp_/);
    t.equal(res.object, 'response');
    t.equal(res.status, 'completed');
    t.equal(res.model, MODEL);
    t.match(res.output_text, /Hello gateway/);
    t.equal(res.output[0]!.type, 'message');
    t.ok(res.usage!.input_tokens > 0 && res.usage!.output_tokens > 0);
    t.equal(res.usage!.total_tokens, res.usage!.input_tokens + res.usage!.output_tokens);
    t.equal(res.usage!.output_tokens_details.reasoning_tokens, 0);
    const sent = lastUpstreamBody();
    t.same(sent.system, [
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Answer in English.' },
      { type: 'text', text: 'No emoji.' },
    ]);
    t.equal(sent.max_tokens, 4096, 'catalogue default max_tokens');
  });

  t.test('stream: the event sequence, usage identical streamed or not', async (t) => {
    const stream = await client.responses.create({ model: MODEL, stream: true, input: 'stream this' });
    const types: string[] = [];
    const sequence: number[] = [];
    let text = '';
    let final: OpenAI.Responses.Response | null = null;
    for await (const ev of stream) {
      types.push(ev.type);
      sequence.push(ev.sequence_number);
      if (ev.type === 'response.output_text.delta') text += ev.delta;
      if (ev.type === 'response.completed') final = ev.response;
    }
    t.same(types.slice(0, 4), ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    t.same(types.slice(-4), ['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    t.same(sequence, sequence.map((_, i) => i), 'sequence numbers count from 0');
    t.match(text, /stream this/);
    const plain = await client.responses.create({ model: MODEL, input: 'stream this' });
    t.same(final!.usage, plain.usage, 'usage is identical streamed and not');
    t.equal(text, plain.output_text, 'the same text streamed and not');
  });

  t.test('responses.stream helper: final response', async (t) => {
    const runner = client.responses.stream({ model: MODEL, input: 'helper stream' });
    const final = await runner.finalResponse();
    t.equal(final.status, 'completed');
    t.match(final.output_text, /helper stream/);
  });

  t.test('tools: a function call round trip', async (t) => {
    const first = await client.responses.create({ model: MODEL, tools: [weatherTool], input: 'Weather in Paris?' });
    const call = first.output.find((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    t.ok(call, 'a function_call item');
    t.equal(call.name, 'get_weather');
    t.type(JSON.parse(call.arguments).city, 'string');
    t.match(call.call_id, /^toolu_/, 'call_id is the provider tool id');
    const second = await client.responses.create({
      model: MODEL,
      tools: [weatherTool],
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21 C' },
      ],
    });
    t.equal(second.status, 'completed');
    t.match(second.output_text, /Sunny/);
    const sent = lastUpstreamBody();
    t.equal(sent.messages[1].content.at(-1).type, 'tool_use');
    t.equal(sent.messages[1].content.at(-1).id, call.call_id);
    t.same(sent.messages[2].content[0], { type: 'tool_result', tool_use_id: call.call_id, content: 'Sunny, 21 C' });
  });

  t.test('thinking with tools: the reasoning item goes back and the provider accepts its signature', async (t) => {
    const first = await client.responses.create({
      model: MODEL,
      max_output_tokens: 4000,
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      tools: [weatherTool],
      input: 'Weather in Paris?',
    });
    t.same(first.output.map((i) => i.type), ['reasoning', 'message', 'function_call']);
    const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem;
    t.ok(reasoning.encrypted_content, 'the thinking block is carried');
    t.ok(reasoning.summary[0]!.text.length > 0, 'the thinking is shown as its summary');
    t.same(lastUpstreamBody().thinking, { type: 'enabled', budget_tokens: 2048 });
    const call = first.output[2] as OpenAI.Responses.ResponseFunctionToolCall;
    // The simulator checks a returned thinking block's signature, as the provider does: an edited or
    // missing block would be a 400 here.
    const second = await client.responses.create({
      model: MODEL,
      max_output_tokens: 4000,
      reasoning: { effort: 'low' },
      tools: [weatherTool],
      input: [{ role: 'user', content: 'Weather in Paris?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: 'Sunny' }],
    });
    t.equal(second.status, 'completed');
    t.match(second.output_text, /Sunny/);
    t.equal(lastUpstreamBody().messages[1].content[0].type, 'thinking', 'the assistant turn starts with its thinking block');
  });

  t.test('streamed function call arguments', async (t) => {
    const runner = client.responses.stream({ model: MODEL, tools: [weatherTool], tool_choice: { type: 'function', name: 'get_weather' }, input: 'Weather?' });
    const deltas: string[] = [];
    runner.on('response.function_call_arguments.delta', (e) => deltas.push(e.delta));
    const final = await runner.finalResponse();
    const call = final.output.find((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    t.same(JSON.parse(call.arguments), { city: 'example' });
    t.equal(deltas.join(''), call.arguments);
    t.same(lastUpstreamBody().tool_choice, { type: 'tool', name: 'get_weather' });
  });

  t.test('stateless: previous_response_id is a 400 naming it, store: true a warning', async (t) => {
    const err = await client.responses.create({ model: MODEL, input: 'x', previous_response_id: 'resp_123' }).catch((e: unknown) => e);
    t.ok(err instanceof OpenAI.BadRequestError);
    const e = err as InstanceType<typeof OpenAI.BadRequestError>;
    t.equal(e.param, 'previous_response_id');
    t.equal(e.code, 'unsupported_parameter');
    const { data, response } = await client.responses.create({ model: MODEL, input: 'x', store: true }).withResponse();
    t.equal((data as unknown as { store: boolean }).store, false, 'answered as not stored');
    t.match(response.headers.get('x-gateway-translation-warnings') ?? '', 'field_ignored:store');
  });
});
