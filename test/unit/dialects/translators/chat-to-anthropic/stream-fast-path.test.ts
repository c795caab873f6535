// The translator's fast paths for delta events against the full parse they skip: the string one
// (./fast-delta.ts, for events the general parser hands over) and the byte one (deltas read in place
// and written from the provider's bytes, as the gateway's stream answer runs them). For any sequence of
// provider events, the chunks are the same JSON values, the state (usage, first token, finished,
// failure, warnings) is the same, and with the provider's usual escaping the bytes are the same.
import t from 'tap';
import fc from 'fast-check';
import { ChatStreamTranslator } from '../../../../../src/dialects/translators/chat-to-anthropic/stream.js';
import { bytewise, everySplit, providerFixtures } from '../../sse/fixture-data.js';
import { CREATED, MODEL, dataPayloads, translateRelayed, translateSync, translator as defaultTranslator } from '../stream-helpers.js';
import { escapeEverything } from './json-escaping.js';

const fast = () => new ChatStreamTranslator({ created: CREATED, model: MODEL, includeUsage: true });
const slow = () => new ChatStreamTranslator({ created: CREATED, model: MODEL, includeUsage: true, fastDeltas: false });

type Escaping = 'stringify' | 'everything' | 'reordered' | 'padded';
type DeltaKind = 'text' | 'thinking' | 'input_json';

const FIELD: Record<DeltaKind, [string, string]> = {
  text: ['text_delta', 'text'],
  thinking: ['thinking_delta', 'thinking'],
  input_json: ['input_json_delta', 'partial_json'],
};

function event(type: string, data: string): string {
  return `event: ${type}\ndata: ${data}\n\n`;
}

function deltaEvent(index: number, kind: DeltaKind, piece: string, escaping: Escaping): string {
  const [type, field] = FIELD[kind];
  const literal = escaping === 'everything' ? escapeEverything(piece) : JSON.stringify(piece);
  const data =
    escaping === 'reordered'
      ? `{"index":${index},"type":"content_block_delta","delta":{"${field}":${literal},"type":"${type}"}}`
      : `{"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":${literal}}${escaping === 'padded' ? ' '.repeat(1 + (piece.length % 9)) : ''}}`;
  return event('content_block_delta', data);
}

const messageStart = event(
  'message_start',
  JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }),
);
const blockStart = (index: number, kind: DeltaKind) => {
  const block = kind === 'text' ? { type: 'text', text: '' } : kind === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'tool_use', id: `toolu_${index}`, name: 'f', input: {} };
  return event('content_block_start', JSON.stringify({ type: 'content_block_start', index, content_block: block }));
};
const blockStop = (index: number) => event('content_block_stop', JSON.stringify({ type: 'content_block_stop', index }));
const messageDelta = event('message_delta', JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }));
const messageStop = event('message_stop', '{"type":"message_stop"}');

/** `relayed`: through the gateway's stream answer (the byte path) rather than parser and translator joined by hand. */
function run(events: string[], tr: ChatStreamTranslator, end = true, relayed = false) {
  const out = relayed ? translateRelayed([events.join('')], tr, end) : translateSync(events, tr, end);
  return { out, state: { usage: tr.usage, firstTokenSeen: tr.firstTokenSeen, finished: tr.finished, failure: tr.failure, warnings: tr.warnings } };
}

// Texts that stress escaping: quotes, backslashes, slashes, control characters, non-ASCII, emoji, and
// arbitrary UTF-16 code units (lone surrogates included, which JSON.stringify writes as \uXXXX).
const piece = fc.oneof(
  fc.string({ unit: fc.constantFrom('"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\x00', '\x1f', '\x7f', 'a', ' ', 'é', '中', '😀', '\u2028', '{', '}') }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string(),
);
const index = fc.nat(3);
const kind = fc.constantFrom<DeltaKind>('text', 'thinking', 'input_json');
const escaping = fc.constantFrom<Escaping>('stringify', 'everything', 'reordered', 'padded');
const anyEvent = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(index, kind, piece, escaping).map(([i, k, p, e]) => deltaEvent(i, k, p, e)) },
  { weight: 2, arbitrary: fc.tuple(index, kind).map(([i, k]) => blockStart(i, k)) },
  { weight: 1, arbitrary: index.map(blockStop) },
  { weight: 1, arbitrary: fc.constantFrom(messageStart, messageDelta, messageStop, event('ping', '{"type":"ping"}')) },
);

t.test('property: any event sequence gives the same chunks (as JSON values) and state with and without the fast path', async () => {
  fc.assert(
    fc.property(fc.boolean(), fc.array(anyEvent, { maxLength: 40 }), fc.boolean(), (started, events, end) => {
      const input = started ? [messageStart, ...events] : events;
      const b = run(input, slow(), end);
      for (const relayed of [false, true]) {
        const a = run(input, fast(), end, relayed);
        if (JSON.stringify(dataPayloads(a.out)) !== JSON.stringify(dataPayloads(b.out))) throw new Error(`chunks differ (relayed ${relayed}):\n${a.out}\n---\n${b.out}`);
        if (JSON.stringify(a.state) !== JSON.stringify(b.state)) throw new Error(`state differs (relayed ${relayed}): ${JSON.stringify(a.state)} / ${JSON.stringify(b.state)}`);
      }
    }),
    { numRuns: 500 },
  );
});

t.test('property: a well-formed stream with the usual escaping gives the same bytes', async () => {
  const block = fc.tuple(kind, fc.array(piece, { minLength: 1, maxLength: 6 }));
  fc.assert(
    fc.property(fc.array(block, { maxLength: 4 }), (blocks) => {
      const events = [messageStart];
      blocks.forEach(([k, pieces], i) => {
        events.push(blockStart(i, k), ...pieces.map((p) => deltaEvent(i, k, p, 'stringify')), blockStop(i));
      });
      events.push(messageDelta, messageStop);
      const b = run(events, slow()).out;
      for (const relayed of [false, true]) {
        const a = run(events, fast(), true, relayed).out;
        if (a !== b) throw new Error(`bytes differ (relayed ${relayed}):\n${a}\n---\n${b}`);
      }
    }),
    { numRuns: 300 },
  );
});

t.test('recorded provider streams give the same bytes with and without the fast path, whole and byte by byte', async (t) => {
  for (const { name, bytes } of providerFixtures().filter((f) => f.name.startsWith('anthropic-'))) {
    const full = run([bytes.toString('utf8')], slow());
    const whole = run([bytes.toString('utf8')], fast());
    t.equal(whole.out, full.out, `${name}: whole`);
    t.same(whole.state, full.state, `${name}: state`);
    t.equal(translateSync(bytewise(bytes), fast()), full.out, `${name}: byte by byte`);
    const relayed = run([bytes.toString('utf8')], fast(), true, true);
    t.equal(relayed.out, full.out, `${name}: relayed (the byte path), whole`);
    t.same(relayed.state, full.state, `${name}: relayed, state`);
    t.equal(translateRelayed(bytewise(bytes), fast()), full.out, `${name}: relayed, byte by byte`);
  }
});

t.test('every two-way split of a stream with escapes, multi-byte text and padding gives the full path\'s bytes', async (t) => {
  const events = [
    messageStart,
    blockStart(0, 'thinking'),
    deltaEvent(0, 'thinking', 'ich überlege… 🤔', 'padded'),
    blockStop(0),
    blockStart(1, 'text'),
    deltaEvent(1, 'text', 'Grüße "quoted" \\ back\nslash 東京 😀', 'stringify'),
    deltaEvent(1, 'text', 'é/\t', 'everything'),
    blockStop(1),
    blockStart(2, 'input_json'),
    deltaEvent(2, 'input_json', '{"city": "Zürich"}', 'padded'),
    blockStop(2),
    messageDelta,
    messageStop,
  ];
  const bytes = Buffer.from(events.join(''), 'utf8');
  const expected = dataPayloads(run([bytes.toString('utf8')], slow()).out);
  let agree = true;
  let relayedAgree = true;
  for (const parts of everySplit(bytes)) {
    agree &&= JSON.stringify(dataPayloads(translateSync(parts, fast()))) === JSON.stringify(expected);
    relayedAgree &&= JSON.stringify(dataPayloads(translateRelayed(parts, fast()))) === JSON.stringify(expected);
  }
  t.ok(agree, 'every split: the same chunks');
  t.ok(relayedAgree, 'every split, relayed (the byte path): the same chunks');
});

t.test('the fast path keeps the full path\'s state rules', async (t) => {
  const text = (i: number, s: string) => deltaEvent(i, 'text', s, 'stringify');
  const cases: Array<[string, string[], (out: string) => void]> = [
    ['a text delta before message_start fails the stream', [text(0, 'x')], (out) => t.match(out, /did not begin with message_start/)],
    ['a delta after message_stop is dropped', [messageStart, blockStart(0, 'text'), messageStop, text(0, 'late')], (out) => t.notMatch(out, /late/)],
    ['a delta after an error is dropped', [messageStart, blockStart(0, 'text'), event('error', '{"type":"error","error":{"type":"overloaded_error","message":"o"}}'), text(0, 'late')], (out) => t.notMatch(out, /late/)],
    ['a text delta on a tool block is still content (as the full path does)', [messageStart, blockStart(0, 'input_json'), text(0, 'on-tool')], (out) => t.match(out, /"content":"on-tool"/)],
    ['a text delta on an unknown block is still content', [messageStart, text(5, 'unknown')], (out) => t.match(out, /"content":"unknown"/)],
    ['tool arguments on a text block are dropped', [messageStart, blockStart(0, 'text'), deltaEvent(0, 'input_json', '{"a":1}', 'stringify')], (out) => t.notMatch(out, /arguments/)],
    ['thinking on a text block is reasoning', [messageStart, blockStart(0, 'text'), deltaEvent(0, 'thinking', 'hm', 'stringify')], (out) => t.match(out, /"reasoning_content":"hm"/)],
    // The translator keeps the last piece's frame: a block stopping or starting must forget it.
    ['a text delta after its block stopped is still content, on the full path\'s terms', [messageStart, blockStart(0, 'text'), text(0, 'a'), blockStop(0), text(0, 'b')], (out) => t.match(out, /"content":"b"/)],
    ['a block index opened again as thinking takes reasoning, not the text frame kept', [messageStart, blockStart(0, 'text'), text(0, 'a'), blockStop(0), blockStart(0, 'thinking'), deltaEvent(0, 'thinking', 'hm', 'stringify'), text(0, 'c')], (out) => t.match(out, /"reasoning_content":"hm"/)],
    ['tool arguments after text on another block, then text again', [messageStart, blockStart(0, 'text'), blockStart(1, 'input_json'), text(0, 'a'), deltaEvent(1, 'input_json', '{"a":', 'stringify'), text(0, 'b'), deltaEvent(1, 'input_json', '1}', 'stringify')], (out) => t.match(out, /"arguments":"1}"/)],
    ['an empty text delta sends nothing', [messageStart, blockStart(0, 'text'), text(0, '')], (out) => t.equal(dataPayloads(out).length, 1)],
  ];
  for (const [name, events, check] of cases) {
    const b = run(events, slow(), false);
    for (const relayed of [false, true]) {
      const a = run(events, fast(), false, relayed);
      t.equal(a.out, b.out, `${name}: same bytes as the full path${relayed ? ' (relayed)' : ''}`);
      t.same(a.state, b.state, `${name}: same state${relayed ? ' (relayed)' : ''}`);
      check(a.out);
    }
  }
});

t.test('the default translator takes the fast path: a provider-escaped literal is spliced as it came', async (t) => {
  const out = translateSync([messageStart, blockStart(0, 'text'), deltaEvent(0, 'text', 'é/', 'everything')], defaultTranslator(), false);
  t.match(out, /"delta":\{"content":"\\u00e9\\\/"\}/, 'the escapes are the provider\'s');
  t.equal((dataPayloads(out)[1] as { choices: Array<{ delta: { content: string } }> }).choices[0]!.delta.content, 'é/');
  const full = translateSync([messageStart, blockStart(0, 'text'), deltaEvent(0, 'text', 'é/', 'everything')], slow(), false);
  t.match(full, /"delta":\{"content":"é\/"\}/, 'the full path re-escapes');
});

t.test('relayed, a provider-escaped literal is copied from its bytes as it came; bytes that are not UTF-8 take the full path', async (t) => {
  const out = translateRelayed([messageStart, blockStart(0, 'text'), deltaEvent(0, 'text', 'é/', 'everything')], defaultTranslator(), false);
  t.match(out, /"delta":\{"content":"\\u00e9\\\/"\}/, "the escapes are the provider's");
  const head = Buffer.from(messageStart + blockStart(0, 'text'));
  const broken = (bytes: number[]) =>
    Buffer.concat([Buffer.from('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a'), Buffer.from(bytes), Buffer.from('b"}}\n\n')]);
  for (const [what, bytes] of [
    ['a lone continuation byte', [0x80]],
    ['an overlong form', [0xc0, 0x80]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a sequence cut short', [0xe6, 0x9d]],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['0xFF', [0xff]],
  ] as Array<[string, number[]]>) {
    const input = Buffer.concat([head, broken(bytes)]);
    const relayed = translateRelayed([input], fast(), false);
    t.equal(relayed, translateSync([input], slow(), false), `${what}: the full path's chunk`);
    t.match(relayed, /\ufffd/, `${what}: decoded to U+FFFD, not copied`);
  }
  const valid = translateRelayed([Buffer.concat([head, broken([0xf0, 0x9f, 0x98, 0x80])])], fast(), false);
  t.match(valid, /"content":"a😀b"/, 'a valid four-byte character is copied');
});
