// The Responses stream translation: recorded provider streams split at every byte give the same
// events; the fast path agrees with the full parse; every event numbered in order; items, usage and
// status as the non-streamed answer gives them; custom and namespace tools mapped back; thinking
// carried whole; a broken stream ends with response.failed.
import t from 'tap';
import { frameText } from '../../../../../src/dialects/sse/frames.js';
import { SseParser } from '../../../../../src/dialects/sse/parser.js';
import { Reframer } from '../../../../../src/dialects/sse/reframer.js';
import { ResponseEnvelope } from '../../../../../src/dialects/translators/responses-to-anthropic/envelope.js';
import { translateMessageToResponse } from '../../../../../src/dialects/translators/responses-to-anthropic/response.js';
import { ResponsesStreamTranslator } from '../../../../../src/dialects/translators/responses-to-anthropic/stream.js';
import { decodeThinking } from '../../../../../src/dialects/translators/responses-to-anthropic/thinking-carrier.js';
import { toolNamesOf } from '../../../../../src/dialects/translators/responses-to-anthropic/tool-names.js';
import { bytewise, everySplit, fixture, providerFixtures } from '../../sse/fixture-data.js';
import { sse, translateRelayed } from '../stream-helpers.js';

const CREATED = 1767225600;
const MODEL = 'claude-sonnet-4-6';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- events are read field by field in the shape each assertion expects
type Ev = Record<string, any>;

function translator(clientBody: Record<string, unknown> | null = null, fastDeltas = true): ResponsesStreamTranslator {
  return new ResponsesStreamTranslator({ createdAt: CREATED, model: MODEL, clientBody, tools: toolNamesOf(clientBody?.tools), fastDeltas });
}

/** Parser → translator → frames; `end` false leaves the input unfinished. */
function translateSync(chunks: Buffer[], tr = translator(), end = true): string {
  let out = '';
  const parser = new SseParser((ev) => {
    for (const f of tr.map(ev)) out += frameText(f);
  });
  for (const c of chunks) parser.push(c);
  parser.end();
  if (end) for (const f of tr.end()) out += frameText(f);
  return out;
}

function events(text: string): Ev[] {
  return text
    .split('\n\n')
    .filter((b) => b.startsWith('event: '))
    .map((b) => {
      const [name, data] = b.split('\n');
      const ev = JSON.parse(data!.slice(6)) as Ev;
      if (name!.slice(7) !== ev.type) throw new Error(`event line ${name} names another type than ${ev.type}`);
      return ev;
    });
}

const anthropicFixtures = providerFixtures().filter((f) => f.name.startsWith('anthropic-'));

t.test('recorded streams: every split gives the same events, fast path and full parse agree', async (t) => {
  for (const { name, bytes } of anthropicFixtures) {
    const whole = translateSync([bytes]);
    let agree = true;
    for (const parts of everySplit(bytes)) agree &&= translateSync(parts) === whole;
    t.ok(agree, `${name}: every two-way split`);
    t.equal(translateSync(bytewise(bytes)), whole, `${name}: byte by byte`);
    const reframer = new Reframer(translator());
    let piped = '';
    for (const b of bytewise(bytes)) piped += reframer.push(b);
    t.equal(piped + reframer.end(), whole, `${name}: byte by byte through the Reframer`);
    t.same(events(translateSync([bytes], translator(null, false))), events(whole), `${name}: the full parse gives the same events`);
    // As the gateway's stream answer runs it: deltas read in place and written as bytes.
    t.equal(translateRelayed([bytes], translator()), whole, `${name}: relayed (the byte path), the same text`);
    let relayedAgree = true;
    for (const parts of everySplit(bytes)) relayedAgree &&= translateRelayed(parts, translator()) === whole;
    t.ok(relayedAgree, `${name}: relayed, every two-way split`);
    t.equal(translateRelayed(bytewise(bytes), translator()), whole, `${name}: relayed, byte by byte`);
    const evs = events(whole);
    t.same(evs.map((e) => e.sequence_number), evs.map((_, i) => i), `${name}: sequence numbers count from 0`);
    t.equal(evs[0]!.type, 'response.created');
    t.equal(evs[1]!.type, 'response.in_progress');
  }
});

t.test('a text and tool stream: the events, the final response equal to the whole answer', async (t) => {
  const bytes = fixture('anthropic-stream-tool-use.sse');
  const tr = translator({ tools: [{ type: 'function', name: 'get_weather' }] });
  const evs = events(translateSync([bytes], tr));
  const done = evs.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
  const final = evs.at(-1)!;
  t.equal(final.type, 'response.completed');
  t.same(final.response.output, done, 'the final response carries every finished item');
  for (const e of evs.filter((e) => e.type === 'response.output_text.delta' || e.type === 'response.function_call_arguments.delta')) {
    t.equal(typeof e.delta, 'string');
  }
  const texts = evs.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
  t.equal(done.find((i: Ev) => i.type === 'message').content[0].text, texts, 'the finished text is its deltas joined');
  const call = done.find((i: Ev) => i.type === 'function_call');
  t.equal(evs.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta).join(''), call.arguments);
  t.ok(tr.finished);
  t.ok(tr.firstTokenSeen);
  // The whole answer the same stream stands for, translated by the non-streamed path.
  const message = assembled(bytes);
  const whole = JSON.parse(translateMessageToResponse(message, new ResponseEnvelope(final.response.id, CREATED, MODEL, null), toolNamesOf([])).body);
  // Arguments are the model's own JSON text streamed, the parsed input serialised again when whole.
  const parsedArguments = (items: Ev[]) => items.map((i) => (i.type === 'function_call' ? { ...i, arguments: JSON.parse(i.arguments) } : i));
  t.same(parsedArguments(whole.output), parsedArguments(final.response.output), 'the same items streamed or not');
  t.same(whole.usage, final.response.usage, 'the same usage streamed or not');
  t.equal(whole.status, final.response.status);
});

t.test('thinking: summary deltas, the block carried whole in encrypted_content', async (t) => {
  const bytes = fixture('anthropic-stream-thinking-refusal.sse');
  const evs = events(translateSync([bytes]));
  const reasoning = evs.find((e) => e.type === 'response.output_item.done' && e.item.type === 'reasoning')!.item;
  const message = assembled(bytes);
  const thinking = (message.content as Ev[]).find((b) => b.type === 'thinking')!;
  t.same(decodeThinking(reasoning.encrypted_content), { type: 'thinking', thinking: thinking.thinking, signature: thinking.signature });
  t.equal(reasoning.summary[0].text, thinking.thinking);
  t.equal(evs.filter((e) => e.type === 'response.reasoning_summary_text.delta').map((e) => e.delta).join(''), thinking.thinking);
  t.ok(evs.some((e) => e.type === 'response.reasoning_summary_part.added'));
});

t.test('max_tokens mid tool call: the item closes incomplete, the response is incomplete', async (t) => {
  const evs = events(translateSync([fixture('anthropic-stream-max-tokens-mid-tool.sse')]));
  const final = evs.at(-1)!;
  t.equal(final.type, 'response.incomplete');
  t.same(final.response.incomplete_details, { reason: 'max_output_tokens' });
  t.equal(final.response.status, 'incomplete');
  t.equal(final.response.output.at(-1).status, 'incomplete');
});

const head = (id = 'msg_1') => sse({ type: 'message_start', message: { id, type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
const toolBlock = (index: number, name: string, pieces: string[]) =>
  sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${index}`, name, input: {} } }) +
  pieces.map((p) => sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } })).join('') +
  sse({ type: 'content_block_stop', index });
const tail = (stop = 'tool_use') => sse({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } }) + sse({ type: 'message_stop' });

t.test('custom and namespace tools map back to their own items and events', async (t) => {
  const client = { tools: [{ type: 'custom', name: 'apply_patch' }, { type: 'namespace', name: 'fs', tools: [{ type: 'function', name: 'read' }] }] };
  const text = head() + toolBlock(0, 'apply_patch', ['{"inp', 'ut": "*** Be', 'gin\\nPatch"}']) + toolBlock(1, 'fs__read', ['{"path":', '"a"}']) + tail();
  const evs = events(translateSync([Buffer.from(text)], translator(client)));
  t.equal(translateRelayed([Buffer.from(text)], translator(client)), translateSync([Buffer.from(text)], translator(client)), 'relayed (the byte path): the same text');
  const done = evs.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
  t.match(done[0], { type: 'custom_tool_call', name: 'apply_patch', call_id: 'toolu_0', input: '*** Begin\nPatch', status: 'completed' });
  t.match(done[1], { type: 'function_call', name: 'read', namespace: 'fs', call_id: 'toolu_1', arguments: '{"path":"a"}' });
  t.same(evs.filter((e) => e.type.startsWith('response.custom_tool_call_input')).map((e) => [e.type, e.delta ?? e.input]), [
    ['response.custom_tool_call_input.delta', '*** Begin\nPatch'],
    ['response.custom_tool_call_input.done', '*** Begin\nPatch'],
  ]);
  t.notOk(evs.some((e) => e.type === 'response.function_call_arguments.delta' && e.output_index === 0), 'no argument events for the custom tool');
});

t.test('a stream that breaks, or an error event, ends with response.failed', async (t) => {
  const cut = head() + sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) + sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } });
  const tr = translator();
  const failed = events(translateSync([Buffer.from(cut)], tr)).at(-1)!;
  t.equal(failed.type, 'response.failed');
  t.match(failed.response, { status: 'failed', error: { code: 'upstream_stream_interrupted', message: /ended before/ } });
  t.notOk(tr.finished);
  t.equal(tr.providerError, null, 'a cut is not the provider\'s error');
  const erring = translator();
  const overloaded = events(translateSync([Buffer.from(head() + sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))], erring)).at(-1)!;
  t.match(overloaded.response.error, { code: 'server_overloaded', message: 'Overloaded' });
  t.equal(erring.providerError, 'overloaded_error', 'the provider\'s error type kept for its route');
  const idle = translator();
  translateSync([Buffer.from(head())], idle, false);
  const frames = idle.failed({ messagesType: 'timeout_error', chatType: 'timeout_error', chatCode: 'upstream_timeout', message: 'silent' });
  t.match(JSON.parse((frames[0] as { json: string }).json), { type: 'response.failed', response: { error: { code: 'upstream_timeout' } } });
  t.same(idle.failed({ messagesType: 'x', chatType: 'x', chatCode: 'x', message: 'x' }), [], 'nothing after the stream is over');
  const complete = translator();
  translateSync([Buffer.from(head() + tail('end_turn'))], complete, false);
  t.same(complete.end(), [], 'nothing after response.completed');
});

/** The whole Message a recorded stream stands for (what the provider answers non-streamed). */
function assembled(bytes: Buffer): Record<string, unknown> {
  let message: Ev = {};
  const blocks: Ev[] = [];
  const parser = new SseParser((ev) => {
    const e = JSON.parse(ev.data) as Ev;
    if (e.type === 'message_start') message = e.message;
    else if (e.type === 'content_block_start') blocks[e.index] = { ...e.content_block, _json: '' };
    else if (e.type === 'content_block_delta') {
      const b = blocks[e.index]!;
      if (e.delta.type === 'text_delta') b.text += e.delta.text;
      if (e.delta.type === 'thinking_delta') b.thinking += e.delta.thinking;
      if (e.delta.type === 'signature_delta') b.signature = e.delta.signature;
      if (e.delta.type === 'input_json_delta') b._json += e.delta.partial_json;
    } else if (e.type === 'message_delta') {
      message = { ...message, stop_reason: e.delta.stop_reason, usage: { ...message.usage, ...e.usage } };
    }
  });
  parser.push(bytes);
  parser.end();
  const content = blocks.map(({ _json, ...b }) => (b.type === 'tool_use' && _json !== '' ? { ...b, input: JSON.parse(_json as string) } : b));
  return { ...message, content };
}
