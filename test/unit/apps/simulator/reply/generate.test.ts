import t from 'tap';
import type { ContentBlock, MessagesRequest, StreamEvent, ToolDefinition } from '../../../../../src/dialects/anthropic/wire.js';
import type { IdSource } from '../../../../../src/apps/simulator/ids.js';
import { estimateInput } from '../../../../../src/apps/simulator/reply/estimate.js';
import { generateReply } from '../../../../../src/apps/simulator/reply/generate.js';
import { toFrames, toMessage } from '../../../../../src/apps/simulator/reply/render.js';
import { exampleInput } from '../../../../../src/apps/simulator/reply/schema-example.js';
import { cutText, firstWords, padWords, toTokens } from '../../../../../src/apps/simulator/reply/words.js';
import { verifyThinking } from '../../../../../src/apps/simulator/signature.js';

let counter = 0;
const fixedIds: IdSource = (kind) => `${kind}_${++counter}`;

function req(extra: Partial<MessagesRequest> = {}): MessagesRequest {
  return { model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }], ...extra };
}

const WEATHER: ToolDefinition = {
  name: 'get_weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, metric: { type: 'boolean' } }, required: ['city'] },
};
const TIME: ToolDefinition = { name: 'get_time', input_schema: { type: 'object', properties: { zone: { type: 'string' } } } };

function texts(content: ContentBlock[]): string[] {
  return content.map((b) => (b.type === 'text' ? b.text : b.type));
}

// [name, request, replyTokens, expected content summary, stop_reason, stop_sequence, output_tokens]
const CASES: Array<[string, MessagesRequest, number, string[], string, string | null, number]> = [
  ['echo padded to replyTokens', req(), 6, ['You said: Hello there and that'], 'end_turn', null, 6],
  ['long prompt cut to replyTokens', req({ messages: [{ role: 'user', content: 'one two three four five six' }] }), 4, ['You said: one two'], 'end_turn', null, 4],
  ['cut by max_tokens', req({ max_tokens: 3 }), 12, ['You said: Hello'], 'max_tokens', null, 3],
  ['stop sequence inside a word', req({ stop_sequences: ['ere'] }), 12, ['You said: Hello th'], 'stop_sequence', 'ere', 4],
  ['earliest stop sequence wins', req({ stop_sequences: ['there', 'said'] }), 12, ['You '], 'stop_sequence', 'said', 2],
  ['stop sequence beyond max_tokens does not fire', req({ max_tokens: 2, stop_sequences: ['there'] }), 12, ['You said:'], 'max_tokens', null, 2],
  ['stop sequence at the very start leaves no text block', req({ stop_sequences: ['You'] }), 12, [], 'stop_sequence', 'You', 1],
  ['max_tokens 0', req({ max_tokens: 0 }), 12, [], 'max_tokens', null, 0],
  ['tool call with the first tool', req({ tools: [WEATHER, TIME] }), 12, ['I will call get_weather now.', 'tool_use'], 'tool_use', null, 5 + 6],
  ['tool_choice none answers in text', req({ tools: [WEATHER], tool_choice: { type: 'none' } }), 3, ['You said: Hello'], 'end_turn', null, 3],
  ['tool_choice tool calls the named tool', req({ tools: [WEATHER, TIME], tool_choice: { type: 'tool', name: 'get_time' } }), 12, ['I will call get_time now.', 'tool_use'], 'tool_use', null, 5 + 3],
  ['tool_choice any with two tools calls both', req({ tools: [WEATHER, TIME], tool_choice: { type: 'any' } }), 12, ['I will call get_weather and get_time now.', 'tool_use', 'tool_use'], 'tool_use', null, 7 + 6 + 3],
  ['disable_parallel_tool_use keeps one call', req({ tools: [WEATHER, TIME], tool_choice: { type: 'any', disable_parallel_tool_use: true } }), 12, ['I will call get_weather now.', 'tool_use'], 'tool_use', null, 5 + 6],
  ['max_tokens inside the tool JSON', req({ max_tokens: 7, tools: [WEATHER] }), 12, ['I will call get_weather now.', 'tool_use'], 'max_tokens', null, 7],
  ['tool result gets a text answer', req({
    tools: [WEATHER],
    messages: [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Sunny, 21C' }] }] },
    ],
  }), 6, ['The tool returned: Sunny, 21C and'], 'end_turn', null, 6],
  ['thinking comes first', req({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } }), 3, ['thinking', 'You said: Hello'], 'end_turn', null, 10 + 3],
];

for (const [name, request, replyTokens, content, stopReason, stopSequence, outputTokens] of CASES) {
  t.test(name, async (t) => {
    const reply = generateReply(request, { replyTokens }, fixedIds);
    const msg = toMessage(reply, 'msg_x', request.model);
    t.same(texts(msg.content as ContentBlock[]), content);
    t.equal(msg.stop_reason, stopReason);
    t.equal(msg.stop_sequence, stopSequence);
    t.equal(msg.usage.output_tokens, outputTokens);
  });
}

t.test('tool input follows the schema; a cut tool call keeps {} as input', async (t) => {
  const reply = generateReply(req({ tools: [WEATHER] }), { replyTokens: 12 }, fixedIds);
  const tool = toMessage(reply, 'm', 'x').content[1];
  t.match(tool, { type: 'tool_use', name: 'get_weather', input: { city: 'example', days: 1, metric: true } });
  t.match((tool as { id: string }).id, /^toolu_/);
  const cut = toMessage(generateReply(req({ max_tokens: 7, tools: [WEATHER] }), { replyTokens: 12 }, fixedIds), 'm', 'x').content[1];
  t.same((cut as { input: unknown }).input, {});
});

t.test('thinking block is signed; display omitted sends no thinking text', async (t) => {
  const thinking = { type: 'enabled' as const, budget_tokens: 1024 };
  const shown = toMessage(generateReply(req({ max_tokens: 2000, thinking }), { replyTokens: 3 }, fixedIds), 'm', 'x').content[0];
  t.equal(shown.type, 'thinking');
  const block = shown as { thinking: string; signature: string };
  t.ok(block.thinking.length > 0);
  t.ok(verifyThinking(block.thinking, block.signature));
  t.notOk(verifyThinking(block.thinking + '!', block.signature));
  const omitted = toMessage(generateReply(req({ thinking: { type: 'adaptive', display: 'omitted' } }), { replyTokens: 3 }, fixedIds), 'm', 'x').content[0];
  t.match(omitted, { type: 'thinking', thinking: '' });
  t.ok(verifyThinking('', (omitted as { signature: string }).signature));
});

/** Rebuilds a message from its frames the way a client does: the stream and the JSON must agree. */
function replayFrames(frames: Array<{ text: string }>): { events: StreamEvent[]; content: unknown[]; stop: unknown; usage: unknown } {
  const events = frames.map((f) => {
    const [eventLine, dataLine, blank1, blank2] = f.text.split('\n');
    const parsed = JSON.parse(dataLine.slice('data: '.length)) as StreamEvent;
    if (eventLine !== `event: ${parsed.type}` || blank1 !== '' || blank2 !== '') throw new Error(`bad frame ${f.text}`);
    return parsed;
  });
  const content: Array<Record<string, unknown>> = [];
  const json: string[] = [];
  let stop: unknown = null;
  let usage: unknown = null;
  for (const e of events) {
    if (e.type === 'content_block_start') {
      content[e.index] = { ...e.content_block };
      json[e.index] = '';
    } else if (e.type === 'content_block_delta') {
      const b = content[e.index];
      if (e.delta.type === 'text_delta') b.text = (b.text as string) + e.delta.text;
      if (e.delta.type === 'thinking_delta') b.thinking = (b.thinking as string) + e.delta.thinking;
      if (e.delta.type === 'signature_delta') b.signature = e.delta.signature;
      if (e.delta.type === 'input_json_delta') json[e.index] += e.delta.partial_json;
    } else if (e.type === 'content_block_stop' && content[e.index].type === 'tool_use') {
      content[e.index].input = JSON.parse(json[e.index]);
    } else if (e.type === 'message_delta') {
      stop = e.delta;
      usage = e.usage;
    }
  }
  return { events, content, stop, usage };
}

const STREAM_CASES: Array<[string, MessagesRequest]> = [
  ['text', req()],
  ['stop sequence', req({ stop_sequences: ['there'] })],
  ['two tools', req({ tools: [WEATHER, TIME], tool_choice: { type: 'any' } })],
  ['thinking', req({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } })],
];

for (const [name, request] of STREAM_CASES) {
  t.test(`stream of "${name}" carries the same content and usage as the JSON reply`, async (t) => {
    const reply = generateReply(request, { replyTokens: 12 }, fixedIds);
    const msg = toMessage(reply, 'msg_1', request.model);
    const { events, content, stop, usage } = replayFrames(toFrames(reply, 'msg_1', request.model));
    t.same(content, msg.content);
    t.same(stop, { stop_reason: msg.stop_reason, stop_sequence: msg.stop_sequence });
    t.match(usage, { input_tokens: msg.usage.input_tokens, output_tokens: msg.usage.output_tokens });
    const types = events.map((e) => e.type);
    t.equal(types[0], 'message_start');
    t.equal(types[1], 'content_block_start');
    t.equal(types[2], 'ping');
    t.same(types.slice(-2), ['message_delta', 'message_stop']);
    const start = events[0] as Extract<StreamEvent, { type: 'message_start' }>;
    t.equal(start.message.stop_reason, null);
    t.same(start.message.content, []);
  });
}

t.test('tool JSON streams as an empty piece and then at least three pieces', async (t) => {
  const reply = generateReply(req({ tools: [WEATHER] }), { replyTokens: 12 }, fixedIds);
  const pieces = toFrames(reply, 'm', 'x')
    .map((f) => JSON.parse(f.text.split('\n')[1].slice(6)) as StreamEvent)
    .filter((e): e is Extract<StreamEvent, { type: 'content_block_delta' }> => e.type === 'content_block_delta' && e.delta.type === 'input_json_delta')
    .map((e) => (e.delta as { partial_json: string }).partial_json);
  t.equal(pieces[0], '');
  t.ok(pieces.length >= 4, `${pieces.length} pieces`);
});

t.test('a tool call cut by max_tokens ends without content_block_stop', async (t) => {
  const reply = generateReply(req({ max_tokens: 7, tools: [WEATHER] }), { replyTokens: 12 }, fixedIds);
  const events = toFrames(reply, 'm', 'x').map((f) => JSON.parse(f.text.split('\n')[1].slice(6)) as StreamEvent);
  t.notOk(events.some((e) => e.type === 'content_block_stop' && e.index === 1));
  t.match(events.find((e) => e.type === 'message_delta'), { delta: { stop_reason: 'max_tokens' } });
});

// [name, request, input, cacheRead, cacheWrite] as a cold cache sees them: every breakpoint's prefix is written.
const ESTIMATES: Array<[string, MessagesRequest, number, number, number]> = [
  ['a quarter token per character', req({ messages: [{ role: 'user', content: 'x'.repeat(41) }] }), 11, 0, 0],
  ['10 per image', req({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'u' } }, { type: 'text', text: 'abcd' }] }] }), 11, 0, 0],
  ['cache breakpoint in system', req({ system: [{ type: 'text', text: 'x'.repeat(400), cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'y'.repeat(40) }] }), 10, 0, 100],
];

for (const [name, request, input, cacheRead, cacheWrite] of ESTIMATES) {
  t.test(`estimate: ${name}`, async (t) => {
    t.match(estimateInput(request), { input, cacheRead, cacheWrite });
  });
}

t.test('words helpers', async (t) => {
  t.same(firstWords('  a\tb\n c  d ', 3), ['a', 'b', 'c']);
  t.same(toTokens(['a', 'b']), ['a', ' b']);
  t.same(padWords(['x'], 3), ['x', 'and', 'that']);
  t.same(cutText(['ab', ' cd'], ['c'], 5), { deltas: ['ab', ' '], consumed: 2, stop: 'stop_sequence', stopSequence: 'c' });
});

t.test('schema examples', async (t) => {
  t.same(exampleInput({ type: 'object', properties: { a: { type: 'array', items: { type: 'number' } }, b: { enum: ['x', 'y'] }, c: { type: ['null', 'string'] } }, required: ['d'] }), {
    a: [1],
    b: 'x',
    c: 'example',
    d: 'example',
  });
  t.same(exampleInput({ type: 'object', properties: { nested: { type: 'object', properties: { ok: { type: 'boolean' } } } } }), { nested: { ok: true } });
});

t.test('every frame is "event: <type>" and the exact JSON.stringify of its event', async (t) => {
  const request = req({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [WEATHER], messages: [{ role: 'user', content: 'Quote "this" \\ and\nthat é 😀' }] });
  for (const f of toFrames(generateReply(request, { replyTokens: 12 }, fixedIds), 'msg_1', request.model)) {
    const m = /^event: ([a-z_]+)\ndata: (.*)\n\n$/s.exec(f.text);
    t.ok(m, f.text);
    const event = JSON.parse(m![2]) as StreamEvent;
    t.equal(m![1], event.type);
    t.equal(m![2], JSON.stringify(event));
  }
});
