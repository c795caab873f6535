// The non-streamed chat fast path (./fast-completion.ts) against the full parse it skips: the same
// bytes when the provider escapes as JSON.stringify does, the same JSON value when it escapes
// otherwise, the same metered usage, and no answer it does not fully recognise.
import t from 'tap';
import fc from 'fast-check';
import { stringifyCompletion } from '../../../../../src/dialects/translators/chat-to-anthropic/completion-json.js';
import { fastCompletion } from '../../../../../src/dialects/translators/chat-to-anthropic/fast-completion.js';
import { MAX_FAST_ANSWER_CHARS } from '../../../../../src/dialects/translators/openai-shared/text-answer.js';
import { translateMessageToCompletion } from '../../../../../src/dialects/translators/chat-to-anthropic/response.js';
import type { Message } from '../../../../../src/dialects/anthropic/wire.js';
import { escapeEverything } from './json-escaping.js';

const CREATED = 1_790_000_000;
const MODEL = 'claude-sonnet-4-6';

// As the simulator and the provider write it (test/integration/simulator records the same order).
function answer(text: string, over: { stop?: string; usage?: string; literal?: string; id?: string; stopSequence?: string } = {}): string {
  const usage =
    over.usage ??
    '{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":12,"service_tier":"standard"}';
  return `{"id":"${over.id ?? 'msg_01JmXpOEMTx5DD3H6GBafIIZ'}","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[{"type":"text","text":${over.literal ?? JSON.stringify(text)}}],"stop_reason":"${over.stop ?? 'end_turn'}","stop_sequence":${over.stopSequence ?? 'null'},"usage":${usage}}`;
}

function full(body: string, model = MODEL) {
  const t = translateMessageToCompletion(JSON.parse(body) as Message, { created: CREATED, model });
  return { body: stringifyCompletion(t.completion), usage: t.usage, warnings: t.warnings };
}

t.test('the recorded answer shape: byte for byte the full translation, and its usage', async (t) => {
  const cases: Array<[string, string]> = [
    ['plain', answer('You said: hello. and that is all there is')],
    ['empty text', answer('')],
    ['max_tokens', answer('cut', { stop: 'max_tokens' })],
    ['stop_sequence', answer('until', { stop: 'stop_sequence', stopSequence: '"END"' })],
    ['cache and thinking tokens', answer('x', { usage: '{"input_tokens":3,"cache_creation_input_tokens":7,"cache_read_input_tokens":11,"output_tokens":5,"output_tokens_details":{"thinking_tokens":2}}' })],
    ['escapes and astral text', answer('line\n"quoted" \\ tab\t 🚀 日本語 \u2028')],
  ];
  for (const [name, body] of cases) {
    const fast = fastCompletion(body, CREATED, MODEL);
    const slow = full(body);
    t.not(fast, null, `${name}: recognised`);
    t.equal(fast?.body, slow.body, `${name}: same bytes`);
    t.same(fast?.usage, slow.usage, `${name}: same usage`);
  }
});

t.test('anything else takes the full path', async (t) => {
  const text = answer('hi');
  const cases: Array<[string, string]> = [
    ['tool use', text.replace('[{"type":"text","text":"hi"}]', '[{"type":"tool_use","id":"toolu_1","name":"f","input":{}}]')],
    ['two text blocks', text.replace('[{"type":"text","text":"hi"}]', '[{"type":"text","text":"a"},{"type":"text","text":"b"}]')],
    ['thinking first', text.replace('[{"type":"text"', '[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text"')],
    ['citations', text.replace('"text":"hi"}', '"text":"hi","citations":null}')],
    ['an unknown stop reason (the full path warns)', answer('hi', { stop: 'brand_new_reason' })],
    ['a field after usage', text.replace(/}$/, ',"container":null}')],
    ['another key order', text.replace('"type":"message","role":"assistant"', '"role":"assistant","type":"message"')],
    ['pretty-printed', JSON.stringify(JSON.parse(text), null, 2)],
    ['an id needing escapes', answer('hi', { id: 'msg_a\\"b' })],
    ['a raw control character in the text', answer('', { literal: '"a\u0001b"' })],
    ['an unpaired surrogate in the text', answer('', { literal: '"a\ud800b"' })],
    ['usage nested two levels', answer('hi', { usage: '{"input_tokens":1,"a":{"b":{"c":1}},"output_tokens":1}' })],
    ['usage that is not JSON', answer('hi', { usage: '{"input_tokens":1,}' })],
    ['too long', answer('x'.repeat(MAX_FAST_ANSWER_CHARS))],
    ['not an object', '[]'],
  ];
  for (const [name, body] of cases) t.equal(fastCompletion(body, CREATED, MODEL), null, name);
});

t.test('a text at the length limit is matched without exhausting the regular expression', async (t) => {
  // Each piece is five characters once escaped: é \\ \"
  const body = answer('é\\"'.repeat(Math.floor((MAX_FAST_ANSWER_CHARS - 600) / 5)));
  t.ok(body.length <= MAX_FAST_ANSWER_CHARS);
  t.equal(fastCompletion(body, CREATED, MODEL)?.body, full(body).body);
});

t.test('for any text, usage and model: same bytes with the usual escaping, same value with any escaping', async (t) => {
  const stop = fc.constantFrom('end_turn', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal', 'model_context_window_exceeded');
  const count = fc.nat({ max: 1_000_000 });
  const usage = fc
    .record({ input_tokens: count, output_tokens: count, cache_read_input_tokens: fc.option(count), cache_creation_input_tokens: fc.option(count), thinking: fc.option(count) })
    .map(({ thinking, ...u }) => JSON.stringify({ ...u, ...(thinking === null ? {} : { output_tokens_details: { thinking_tokens: thinking } }), service_tier: 'standard' }));
  const model = fc.oneof(fc.constantFrom(MODEL, 'my-alias', 'claude-haiku-4-5-20251001'), fc.string());
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), stop, usage, model, (text, stopReason, usageText, modelName) => {
      const usual = answer(text, { stop: stopReason, usage: usageText });
      const fast = fastCompletion(usual, CREATED, modelName);
      const slow = full(usual, modelName);
      if (fast === null) return false;
      if (JSON.stringify(modelName) === `"${modelName}"` && fast.body !== slow.body) return false;
      if (JSON.stringify(JSON.parse(fast.body)) !== JSON.stringify(JSON.parse(slow.body))) return false;
      const unusual = fastCompletion(answer('', { stop: stopReason, usage: usageText, literal: escapeEverything(text) }), CREATED, modelName);
      return unusual !== null && JSON.stringify(JSON.parse(unusual.body)) === JSON.stringify(JSON.parse(slow.body)) && JSON.stringify(fast.usage) === JSON.stringify(slow.usage);
    }),
    { numRuns: 2000 },
  );
  t.pass('2000 cases');
});
