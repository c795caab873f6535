import t from 'tap';
import fc from 'fast-check';
import { translateMessageToCompletion } from '../../../../../src/dialects/translators/chat-to-anthropic/response.js';
import { bytewise, everySplit, fixture, providerFixtures } from '../../sse/fixture-data.js';
import { CREATED, MODEL, dataPayloads, sse, translatePiped, translateSync, translator } from '../stream-helpers.js';

// A provider stream with a text block, then a tool_use block whose arguments arrive in pieces.
const toolStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_01H8fKq2V3yTbq9Xr4LwZp7c","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":412,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me look that up."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01Dq6Ktx4WmVqRa1nEuB3cHs","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Par"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"is\\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":58}}

event: message_stop
data: {"type":"message_stop"}

`;

// The expected translation (docs/wire.md, "Chat chunks" and "Tool calls") of the stream above.
const expectedChunks = `data: {"id":"chatcmpl-msg_01H8fKq2V3yTbq9Xr4LwZp7c","object":"chat.completion.chunk","created":1767225600,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}

data: {"id":"chatcmpl-msg_01H8fKq2V3yTbq9Xr4LwZp7c","object":"chat.completion.chunk","created":1767225600,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":{"content":"Let me look that up."},"logprobs":null,"finish_reason":null}]}

data: {"id":"chatcmpl-msg_01H8fKq2V3yTbq9Xr4LwZp7c","object":"chat.completion.chunk","created":1767225600,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"toolu_01Dq6Ktx4WmVqRa1nEuB3cHs","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}]}

data: {"id":"chatcmpl-msg_01H8fKq2V3yTbq9Xr4LwZp7c","object":"chat.completion.chunk","created":1767225600,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\": \\"Par"}}]},"logprobs":null,"finish_reason":null}]}

data: {"id":"chatcmpl-msg_01H8fKq2V3yTbq9Xr4LwZp7c","object":"chat.completion.chunk","created":1767225600,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"is\\"}"}}]},"logprobs":null,"finish_reason":null}]}

data: {"id":"chatcmpl-msg_01H8fKq2V3yTbq9Xr4LwZp7c","object":"chat.completion.chunk","created":1767225600,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}

data: {"id":"chatcmpl-msg_01H8fKq2V3yTbq9Xr4LwZp7c","object":"chat.completion.chunk","created":1767225600,"model":"claude-sonnet-4-5","choices":[],"usage":{"prompt_tokens":412,"completion_tokens":58,"total_tokens":470,"prompt_tokens_details":{"cached_tokens":0}}}

data: [DONE]

`;

t.test('a tool stream becomes exactly the expected chunks', async (t) => {
  const tr = translator();
  t.equal(translateSync([toolStream], tr), expectedChunks);
  t.equal(tr.finished, true);
  t.equal(tr.failure, null);
  t.same(tr.usage, { input: 412, output: 58, cacheRead: 0, cacheWrite: 0 });
  t.same(tr.warnings, []);
  t.equal(await translatePiped([Buffer.from(toolStream)]), expectedChunks, 'the same through the production Reframer');
});

interface Chunk {
  id: string;
  created: number;
  model: string;
  object: string;
  choices: Array<{ index: number; delta: Record<string, unknown>; finish_reason: string | null }>;
  usage?: Record<string, unknown>;
}

t.test('the recorded tool-use stream has the §4.5 shape', async (t) => {
  const out = translateSync([fixture('anthropic-stream-tool-use.sse')]);
  const payloads = dataPayloads(out);
  t.equal(payloads.pop(), '[DONE]');
  const chunks = payloads as Chunk[];
  for (const c of chunks) {
    t.equal(c.id, 'chatcmpl-msg_019Q1hrJbZG26Fb9BQhrkHEr');
    t.equal(c.created, CREATED);
    t.equal(c.model, MODEL, 'the model the client asked for, not the provider one');
    t.equal(c.object, 'chat.completion.chunk');
  }
  t.same(chunks[0]!.choices[0]!.delta, { role: 'assistant', content: '' });
  const deltas = chunks.slice(1, -2).map((c) => c.choices[0]!.delta);
  const text = deltas.filter((d) => 'content' in d).map((d) => d.content).join('');
  t.equal(text, "I'll check the current weather in Paris for you.");
  const toolDeltas = deltas.filter((d) => 'tool_calls' in d).map((d) => (d.tool_calls as Array<Record<string, unknown>>)[0]!);
  t.same(toolDeltas[0], { index: 0, id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', type: 'function', function: { name: 'get_weather', arguments: '' } });
  const args = toolDeltas.slice(1).map((d) => {
    t.same(Object.keys(d), ['index', 'function']);
    t.equal(d.index, 0);
    return (d.function as { arguments: string }).arguments;
  });
  t.notOk(args.includes(''), 'empty argument pieces are skipped');
  t.same(JSON.parse(args.join('')), { location: 'Paris' });
  const finish = chunks[chunks.length - 2]!;
  t.same(finish.choices, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }]);
  const usage = chunks[chunks.length - 1]!;
  t.same(usage.choices, []);
  t.same(usage.usage, { prompt_tokens: 377, completion_tokens: 65, total_tokens: 442, prompt_tokens_details: { cached_tokens: 0 } });
  t.match(out, /^: ping$/m, 'the ping became a comment');
});

t.test('thinking goes to reasoning_content, never content; refusal → content_filter; thinking tokens reported', async (t) => {
  const tr = translator();
  const payloads = dataPayloads(translateSync([fixture('anthropic-stream-thinking-refusal.sse')], tr));
  const chunks = payloads.slice(0, -1) as Chunk[];
  const deltas = chunks.filter((c) => c.choices.length > 0).map((c) => c.choices[0]!.delta);
  const reasoning = deltas.map((d) => d.reasoning_content).filter((x) => x !== undefined).join('');
  t.match(reasoning, /^Simple educational question/);
  t.equal(deltas.map((d) => d.content ?? '').join(''), 'Hi');
  t.notOk(deltas.some((d) => typeof d.content === 'string' && d.content.includes('educational')));
  t.notOk(JSON.stringify(payloads).includes('c3ludGhldGlj'), 'the signature is not sent');
  t.equal(chunks[chunks.length - 2]!.choices[0]!.finish_reason, 'content_filter');
  t.same(chunks[chunks.length - 1]!.usage, {
    prompt_tokens: 28,
    completion_tokens: 106,
    total_tokens: 134,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 67 },
  });
});

t.test('max_tokens in the middle of a tool call: finish length, arguments passed through as they came', async (t) => {
  const chunks = dataPayloads(translateSync([fixture('anthropic-stream-max-tokens-mid-tool.sse')])).slice(0, -1) as Chunk[];
  const args = chunks
    .flatMap((c) => c.choices.map((ch) => ch.delta.tool_calls as Array<{ function: { arguments?: string } }> | undefined))
    .filter((x) => x !== undefined)
    .map((tc) => tc[0]!.function.arguments)
    .join('');
  t.match(args, /^\{"filename": "taxes.txt", "lines_of_text": \[/);
  t.notOk(args.endsWith('{}'));
  t.equal(chunks[chunks.length - 2]!.choices[0]!.finish_reason, 'length');
});

t.test('every recorded stream translates the same however its bytes are split', async (t) => {
  for (const { name, bytes } of providerFixtures().filter((f) => f.name.startsWith('anthropic-'))) {
    const whole = translateSync([bytes]);
    let agree = true;
    for (const parts of everySplit(bytes)) agree &&= translateSync(parts) === whole;
    t.ok(agree, `${name}: every two-way split`);
    t.equal(translateSync(bytewise(bytes)), whole, `${name}: byte by byte`);
    t.equal(await translatePiped(bytewise(bytes)), whole, `${name}: byte by byte through the stream stages`);
  }
});

t.test('through the stream stages, every split of the tool stream gives the same bytes', async (t) => {
  const bytes = fixture('anthropic-stream-tool-use.sse');
  const whole = await translatePiped([bytes]);
  let agree = true;
  for (const parts of everySplit(bytes)) agree &&= (await translatePiped(parts)) === whole;
  t.ok(agree);
});

t.test('property: random chunkings of a recorded stream give identical output', async () => {
  const streams = providerFixtures().filter((f) => f.name.startsWith('anthropic-'));
  await fc.assert(
    fc.asyncProperty(fc.nat(streams.length - 1), fc.array(fc.nat(), { maxLength: 30 }), async (which, cuts) => {
      const bytes = streams[which]!.bytes;
      const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      const parts: Buffer[] = [];
      let prev = 0;
      for (const p of [...points, bytes.length]) {
        parts.push(bytes.subarray(prev, p));
        prev = p;
      }
      if ((await translatePiped(parts)) !== translateSync([bytes])) throw new Error(`differs for cuts ${points.join(',')}`);
    }),
    { numRuns: 150 },
  );
});

const start = (usage: Record<string, unknown> = { input_tokens: 5, output_tokens: 1 }) =>
  sse({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'x', content: [], stop_reason: null, stop_sequence: null, usage } });
const block = (index: number, content_block: Record<string, unknown>) => sse({ type: 'content_block_start', index, content_block });
const delta = (index: number, d: Record<string, unknown>) => sse({ type: 'content_block_delta', index, delta: d });
const stop = (index: number) => sse({ type: 'content_block_stop', index });
const messageDelta = (stop_reason: string | null, usage: Record<string, unknown> = { output_tokens: 9 }) =>
  sse({ type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage });
const messageStop = sse({ type: 'message_stop' });

function deltasOf(out: string): Array<Record<string, unknown>> {
  return (dataPayloads(out).filter((p) => p !== '[DONE]') as Chunk[]).filter((c) => c.choices.length > 0).map((c) => c.choices[0]!.delta);
}

t.test('tool indexes count tool calls only, not content blocks', async (t) => {
  const out = translateSync([
    start(),
    block(0, { type: 'text', text: '' }),
    delta(0, { type: 'text_delta', text: 'a' }),
    stop(0),
    block(1, { type: 'thinking', thinking: '', signature: '' }),
    delta(1, { type: 'thinking_delta', thinking: 'hm' }),
    delta(1, { type: 'signature_delta', signature: 'sig' }),
    stop(1),
    block(2, { type: 'tool_use', id: 'toolu_a', name: 'f', input: {} }),
    delta(2, { type: 'input_json_delta', partial_json: '{"x":1}' }),
    stop(2),
    block(3, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
    delta(3, { type: 'input_json_delta', partial_json: '{"query":"q"}' }),
    stop(3),
    block(4, { type: 'tool_use', id: 'toolu_b', name: 'g', input: {} }),
    stop(4),
    messageDelta('tool_use'),
    messageStop,
  ]);
  const toolDeltas = deltasOf(out).filter((d) => d.tool_calls).map((d) => (d.tool_calls as unknown[])[0]);
  t.same(toolDeltas, [
    { index: 0, id: 'toolu_a', type: 'function', function: { name: 'f', arguments: '' } },
    { index: 0, function: { arguments: '{"x":1}' } },
    { index: 1, id: 'toolu_b', type: 'function', function: { name: 'g', arguments: '' } },
    { index: 1, function: { arguments: '{}' } },
  ]);
  t.notOk(out.includes('web_search') || out.includes('query'), 'server tool input is not a client tool call');
});

t.test('usage: include_usage off sends no usage chunk but still counts; numbers equal the non-streamed path', async (t) => {
  const events = [
    start({ input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 50, output_tokens: 1 }),
    block(0, { type: 'text', text: 'Hi' }),
    stop(0),
    messageDelta('end_turn', { output_tokens: 20 }),
    messageStop,
  ];
  const off = translator(false);
  const out = translateSync(events, off);
  t.notOk(dataPayloads(out).some((p) => typeof p === 'object' && p !== null && 'usage' in p));
  t.same(off.usage, { input: 10, output: 20, cacheRead: 100, cacheWrite: 50 });
  const on = dataPayloads(translateSync(events, translator(true))) as Chunk[];
  const streamedUsage = on[on.length - 2]!.usage;
  const { completion } = translateMessageToCompletion(
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'x',
      content: [{ type: 'text', text: 'Hi' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 50 },
    },
    { created: CREATED, model: MODEL },
  );
  t.same(streamedUsage, completion.usage);
  t.same(streamedUsage, { prompt_tokens: 160, completion_tokens: 20, total_tokens: 180, prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 50 } });
  t.same(deltasOf(out)[1], { content: 'Hi' }, 'text already present at content_block_start is sent');
});

t.test('failures end with an error chunk and [DONE], never a silent cut', async (t) => {
  const errorEvent = sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  const cases: Array<[string, string[], boolean, Record<string, unknown>]> = [
    ['provider error event mid-stream', [start(), block(0, { type: 'text', text: '' }), errorEvent, delta(0, { type: 'text_delta', text: 'late' })], true,
      { message: 'Overloaded', type: 'overloaded_error', param: null, code: 'server_overloaded' }],
    ['provider error before message_start', [errorEvent], true, { message: 'Overloaded', type: 'overloaded_error', param: null, code: 'server_overloaded' }],
    ['EOF without message_stop', [start(), block(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'par' })], true,
      { message: 'The upstream stream ended before the message was complete.', type: 'api_error', param: null, code: 'upstream_stream_interrupted' }],
    ['malformed JSON', [start(), 'event: content_block_delta\ndata: {"type":"content_bl\n\n', messageStop], true,
      { message: 'The upstream sent a stream event that is not valid JSON.', type: 'api_error', param: null, code: 'upstream_protocol_error' }],
    ['a provider event that is not an object', [start(), 'event: content_block_delta\ndata: [1]\n\n'], true,
      { message: 'The upstream sent a malformed stream event.', type: 'api_error', param: null, code: 'upstream_protocol_error' }],
    ['content before message_start', [delta(0, { type: 'text_delta', text: 'x' })], true,
      { message: 'The upstream stream did not begin with message_start.', type: 'api_error', param: null, code: 'upstream_protocol_error' }],
  ];
  for (const [name, events, end, error] of cases) {
    const tr = translator();
    const out = translateSync(events, tr, end);
    const payloads = dataPayloads(out);
    t.equal(payloads[payloads.length - 1], '[DONE]', `${name}: ends with [DONE]`);
    t.same(payloads[payloads.length - 2], { error }, `${name}: error chunk`);
    t.equal(payloads.filter((p) => p === '[DONE]').length, 1, `${name}: one [DONE]`);
    t.notOk(out.includes('late'), `${name}: nothing after the error`);
    t.equal(tr.finished, false, `${name}: not finished`);
    t.equal(tr.failure?.code, error.code, `${name}: failure recorded`);
    t.same(tr.end(), [], `${name}: end() after the error adds nothing`);
    t.equal(tr.providerError, name.startsWith('provider error') ? 'overloaded_error' : null, `${name}: the provider's error type kept for its route`);
  }
});

t.test('unknown events are ignored; a missing stop reason still finishes the stream, with a warning', async (t) => {
  const tr = translator(false);
  const out = translateSync([start(), sse({ type: 'future_event', x: 1 }), 'event: other\ndata: [1,2]\n\n', 'data: 7\n\n', block(0, { type: 'text', text: 'ok' }), stop(0), messageStop], tr);
  const payloads = dataPayloads(out);
  t.equal(payloads.length, 4, 'role, text, finish, [DONE]');
  t.equal((payloads[2] as Chunk).choices[0]!.finish_reason, 'stop');
  t.same(tr.warnings, [{ kind: 'finish_reason_unknown', detail: 'stop_reason' }]);
  t.equal(tr.finished, true);
});

t.test('finish reasons map; the raw provider reason never leaks', async (t) => {
  for (const [reason, expected] of [['end_turn', 'stop'], ['stop_sequence', 'stop'], ['max_tokens', 'length'], ['refusal', 'content_filter'], ['pause_turn', 'stop'], ['model_context_window_exceeded', 'length'], ['mystery', 'stop']] as const) {
    const payloads = dataPayloads(translateSync([start(), messageDelta(reason), messageStop], translator(false)));
    t.equal((payloads[1] as Chunk).choices[0]!.finish_reason, expected, reason);
  }
  const twice = dataPayloads(translateSync([start(), messageDelta('end_turn'), messageDelta('end_turn', { output_tokens: 12 }), messageStop], translator(false)));
  t.equal(twice.length, 3, 'one finish chunk even with two message_delta events');
});

t.test('firstTokenSeen marks the first content, not the role chunk', async (t) => {
  const tr = translator();
  translateSync([start()], tr, false);
  t.equal(tr.firstTokenSeen, false);
  translateSync([block(0, { type: 'text', text: '' })], tr, false);
  t.equal(tr.firstTokenSeen, false, 'an empty block start is no token');
  translateSync([delta(0, { type: 'text_delta', text: 'x' })], tr, false);
  t.equal(tr.firstTokenSeen, true);
});
