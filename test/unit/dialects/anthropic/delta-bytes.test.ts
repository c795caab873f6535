// A delta read in place: readDeltaHead finds index, kind and value start only in the provider's own
// layout, and literalEnd accepts exactly the well-formed JSON string literals (as JSON.parse reads
// them) that are valid UTF-8, followed by the delta's closing braces.
import t from 'tap';
import { DELTA_HEAD, emptyDeltaPlace, literalEnd, readDeltaHead } from '../../../../src/dialects/anthropic/delta-bytes.js';
import { viewOf } from '../../../../src/lib/bytes/bytes-at.js';

function head(data: string): { ok: boolean; place: ReturnType<typeof emptyDeltaPlace> } {
  const bytes = Buffer.from(data);
  const place = emptyDeltaPlace();
  const ok = readDeltaHead(bytes, viewOf(bytes), DELTA_HEAD.length, bytes.length, place);
  return { ok, place };
}

t.test('readDeltaHead: the three kinds, any index; anything else is not the layout', async (t) => {
  const cases: Array<[string, string, false | { index: number; kind: string; value: string }]> = [
    ['text', `${DELTA_HEAD}0,"delta":{"type":"text_delta","text":"hi"}}`, { index: 0, kind: 'text', value: 'hi"}}' }],
    ['thinking', `${DELTA_HEAD}12,"delta":{"type":"thinking_delta","thinking":"hm"}}`, { index: 12, kind: 'thinking', value: 'hm"}}' }],
    ['tool arguments', `${DELTA_HEAD}7,"delta":{"type":"input_json_delta","partial_json":"{}"}}`, { index: 7, kind: 'input_json', value: '{}"}}' }],
    ['nine digits', `${DELTA_HEAD}123456789,"delta":{"type":"text_delta","text":"x"}}`, { index: 123456789, kind: 'text', value: 'x"}}' }],
    ['ten digits', `${DELTA_HEAD}1234567890,"delta":{"type":"text_delta","text":"x"}}`, false],
    ['a leading zero', `${DELTA_HEAD}01,"delta":{"type":"text_delta","text":"x"}}`, false],
    ['no index', `${DELTA_HEAD},"delta":{"type":"text_delta","text":"x"}}`, false],
    ['a signature delta', `${DELTA_HEAD}0,"delta":{"type":"signature_delta","signature":"x"}}`, false],
    ['a text kind with another field', `${DELTA_HEAD}0,"delta":{"type":"text_delta","txt":"x"}}`, false],
    ['a space after the comma', `${DELTA_HEAD}0, "delta":{"type":"text_delta","text":"x"}}`, false],
    ['cut short', `${DELTA_HEAD}0,"delta":{"type":"te`, false],
    ['digits to the end', `${DELTA_HEAD}0`, false],
  ];
  for (const [what, data, expected] of cases) {
    const { ok, place } = head(data);
    if (expected === false) t.notOk(ok, what);
    else t.same({ ok, index: place.index, kind: place.kind, value: data.slice(place.valueStart) }, { ok: true, ...expected, value: expected.value }, what);
  }
});

/** literalEnd over `"<body>` + `tail`: the closing quote's place, or -1. */
function end(body: Buffer | string, tail = '}}'): number {
  const bytes = Buffer.concat([Buffer.from('"'), Buffer.from(body), Buffer.from(tail)]);
  return literalEnd(bytes, 1, bytes.length);
}

t.test('literalEnd: well-formed literals and the delta closing after them', async (t) => {
  const good: Array<[string, string]> = [
    ['plain', 'hello world"'],
    ['every short escape', '\\" \\\\ \\/ \\b \\f \\n \\r \\t"'],
    ['a \\u escape, upper and lower hex', '\\u00e9\\u00E9\\uD83D\\ude00"'],
    ['two-, three- and four-byte characters', 'é 東 😀 \u0080 \u07ff \u0800 \uffff"'],
    ['DEL is not a control character in JSON', '\u007f"'],
  ];
  for (const [what, body] of good) t.equal(end(body), Buffer.byteLength(body), what);
  t.equal(end('x"', '}   }'), 2, 'spaces between the closing braces (the provider pads)');
  t.equal(end('"'), 1, 'an empty literal: its closing quote is where its value starts (the callers leave it to the full path)');
});

t.test('literalEnd: anything JSON.parse would refuse, bytes that are not UTF-8, or another ending', async (t) => {
  const bad: Array<[string, Buffer | string, string?]> = [
    ['a raw newline', 'a\nb"'],
    ['a raw control character', 'a\u0001"'],
    ['an unknown escape', '\\x41"'],
    ['a short \\u escape', '\\u12"'],
    ['a \\u escape with a non-hex digit', '\\u12g4"'],
    ['an escape at the very end', '\\'],
    ['no closing quote', 'abc'],
    ['a lone continuation byte', Buffer.from([0x61, 0x80, 0x22])],
    ['an overlong two-byte form', Buffer.from([0xc1, 0xbf, 0x22])],
    ['an overlong three-byte form', Buffer.from([0xe0, 0x9f, 0xbf, 0x22])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80, 0x22])],
    ['an overlong four-byte form', Buffer.from([0xf0, 0x8f, 0xbf, 0xbf, 0x22])],
    ['past U+10FFFF', Buffer.from([0xf4, 0x90, 0x80, 0x80, 0x22])],
    ['a bad third byte', Buffer.from([0xe6, 0x9d, 0x41, 0x22])],
    ['a sequence cut by the quote', Buffer.from([0xe6, 0x9d, 0x22])],
    ['0xFF', Buffer.from([0xff, 0x22])],
    ['something after the braces', 'x"', '}}x'],
    ['one brace', 'x"', '}'],
    ['a comma after the literal', 'x"', ',}}'],
  ];
  for (const [what, body, tail] of bad) t.equal(end(body, tail), -1, what);
});

t.test('literalEnd agrees with JSON.parse and a UTF-8 check on every short byte string', async (t) => {
  // Every string of up to two bytes drawn from the interesting ones, then the closing quote.
  const alphabet = [0x00, 0x1f, 0x20, 0x22, 0x2f, 0x5c, 0x61, 0x62, 0x6e, 0x75, 0x7f, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
  let agree = true;
  for (const a of alphabet) {
    for (const b of [undefined, ...alphabet]) {
      const body = Buffer.from(b === undefined ? [a] : [a, b]);
      const bytes = Buffer.concat([Buffer.from('"'), body, Buffer.from('"}}')]);
      const text = bytes.subarray(0, body.length + 2);
      let parses = true;
      try {
        JSON.parse(text.toString('utf8'));
      } catch {
        parses = false;
      }
      const expected = parses && Buffer.from(text.toString('utf8')).equals(text) ? body.length + 1 : -1;
      agree &&= literalEnd(bytes, 1, bytes.length) === expected;
    }
  }
  t.ok(agree);
});
