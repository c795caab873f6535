// The provider body writer must give JSON.stringify's bytes exactly, for every request the translator
// builds and for any plain data in the places it writes itself.
import t, { type Test } from 'tap';
import fc from 'fast-check';
import { quoteJson } from '../../../../../src/lib/json/quote.js';
import { stringifyMessagesRequest } from '../../../../../src/dialects/translators/openai-shared/request-json.js';
import type { MessagesRequest } from '../../../../../src/dialects/anthropic/wire.js';

const same = (t: Test, value: unknown, name: string) => t.equal(stringifyMessagesRequest(value as MessagesRequest), JSON.stringify(value), name);

t.test('table: the shapes the translator writes and the edges of JSON.stringify', async (t) => {
  const cases: Array<[string, unknown]> = [
    ['two turns of text blocks and a system block', {
      model: 'claude-sonnet-4-6',
      max_tokens: 16,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }, { role: 'assistant', content: 'plain string content' }],
      system: [{ type: 'text', text: 'You are terse.' }],
    }],
    ['escapes: quote, backslash, controls, DEL and non-ASCII', { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: 'a"b\\c\n\t\u0000\u001f\u007f é 中 😀' }] }] }],
    ['lone surrogates are escaped as JSON.stringify escapes them', { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: 'x\ud800y\udc00z' }] }], system: '\udfff' }],
    ['undefined members are left out at every level', { model: 'm', max_tokens: 1, temperature: undefined, messages: [{ role: 'user', content: [{ type: 'text', text: 't', cache_control: undefined }], extra: undefined }] }],
    ['numbers: fractions, exponents, -0, NaN and Infinity', { model: 'm', max_tokens: 1e21, temperature: 0.1 + 0.2, top_p: -0, top_k: Number.NaN, x: Infinity, messages: [] }],
    ['items without a JSON form are null', { model: 'm', max_tokens: 1, messages: [undefined, { role: 'user', content: [undefined, () => 1, 'a string item', 3, null, [1, [2]]] }] }],
    ['nested values go whole: tools, tool use, tool results, images, metadata', {
      model: 'm',
      max_tokens: 64,
      tools: [{ name: 'get_weather', description: 'd', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      metadata: { user_id: 'u"1' },
      stop_sequences: ['\n\nHuman:', 'END'],
      stream: true,
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }, { type: 'text', text: 'what is this?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', nested: { a: [1, null, true] } } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21°C' }], is_error: false }] },
      ],
    }],
    ['member names that need escaping, and integer-like names first as JSON.stringify orders them', { b: 1, 2: 'two', 'q"uote': 'x', 1: 'one', model: 'm', max_tokens: 1, messages: [{ 9: 'nine', role: 'user', content: [{ 'te\nxt': 'x', 0: 'zero' }] }] }],
    ['members named like Object.prototype\'s own, holding arrays', { model: 'm', max_tokens: 1, constructor: [1], messages: [{ toString: ['a'], role: 'user', content: [{ constructor: ['x'], hasOwnProperty: [2], type: 'text', text: 't' }] }] }],
    ['messages and system that are not arrays', { model: 'm', max_tokens: 1, messages: 'not a list', system: { not: 'a list' } }],
  ];
  for (const [name, value] of cases) same(t, value, name);
});

t.test('quoteJson equals JSON.stringify for any string', async (t) => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (s) => quoteJson(s) === JSON.stringify(s)),
    { numRuns: 3000 },
  );
  t.pass('3000 strings');
});

// Any JSON-like data (with undefined, NaN and functions sprinkled in) in the request, turn and block places.
const leaf = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.constant(Number.NaN), fc.double(), fc.string({ unit: 'binary' }));
const record = (value: fc.Arbitrary<unknown>) => fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('type', 'text', 'role', 'content', '0', '17', 'constructor', 'toString')), value, { maxKeys: 5 });
const block = fc.oneof(record(leaf), leaf);
const turn = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.oneof(fc.string({ unit: 'binary' }), fc.array(block, { maxLength: 4 })) }),
  record(leaf),
  leaf,
);
const request = fc
  .tuple(record(leaf), fc.array(turn, { maxLength: 4 }), fc.oneof(fc.array(block, { maxLength: 3 }), leaf))
  .map(([rest, messages, system]) => ({ model: 'claude-sonnet-4-6', max_tokens: 16, messages, ...rest, system }));

t.test('property: equals JSON.stringify on arbitrary data in every place it writes itself', async (t) => {
  fc.assert(fc.property(request, (value) => stringifyMessagesRequest(value as unknown as MessagesRequest) === JSON.stringify(value)), { numRuns: 3000 });
  t.pass('3000 requests');
});
