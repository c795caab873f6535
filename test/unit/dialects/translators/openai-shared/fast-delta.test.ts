// The fast-path recogniser for delta events: exactly the one shape with a well-formed JSON string, or
// null (the caller then parses in full). Where it recognises, its literal must parse to the same
// value JSON.parse finds in the event.
import t from 'tap';
import { MAX_FAST_DELTA_CHARS, scanFastDelta } from '../../../../../src/dialects/translators/openai-shared/fast-delta.js';

/** A text delta event with `raw` placed verbatim between the quotes of "text". */
const text = (raw: string, index = '0') => `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":"${raw}"}}`;

t.test('recognised: the literal is the provider\'s, and parses to the value JSON.parse finds', async (t) => {
  const cases: Array<[string, string, { kind: string; index: number; literal: string }]> = [
    ['plain', text('Hello'), { kind: 'text', index: 0, literal: '"Hello"' }],
    ['multi-digit index', text('x', '12'), { kind: 'text', index: 12, literal: '"x"' }],
    ['nine-digit index', text('x', '123456789'), { kind: 'text', index: 123456789, literal: '"x"' }],
    ['every simple escape', text('\\" \\\\ \\/ \\b \\f \\n \\r \\t'), { kind: 'text', index: 0, literal: '"\\" \\\\ \\/ \\b \\f \\n \\r \\t"' }],
    ['\\u escapes, both hex cases', text('\\u00e9\\u00C9\\u0000'), { kind: 'text', index: 0, literal: '"\\u00e9\\u00C9\\u0000"' }],
    ['escaped surrogate pair', text('\\ud83d\\ude00'), { kind: 'text', index: 0, literal: '"\\ud83d\\ude00"' }],
    ['escaped lone surrogate (valid JSON)', text('\\ud800'), { kind: 'text', index: 0, literal: '"\\ud800"' }],
    ['raw non-ASCII and emoji', text('ünï 中文 😀'), { kind: 'text', index: 0, literal: '"ünï 中文 😀"' }],
    ['DEL and U+2028 raw', text('\x7f\u2028'), { kind: 'text', index: 0, literal: '"\x7f\u2028"' }],
    ['empty string', text(''), { kind: 'text', index: 0, literal: '""' }],
    ['spaces between the last two braces (the provider pads there)', `${text('x').slice(0, -1)}       }`, { kind: 'text', index: 0, literal: '"x"' }],
    ['one space of padding, a string ending in braces', `${text('a}}').slice(0, -1)} }`, { kind: 'text', index: 0, literal: '"a}}"' }],
    ['backslash before the closing quote', text('a\\\\'), { kind: 'text', index: 0, literal: '"a\\\\"' }],
    [
      'thinking',
      '{"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"hm\\n"}}',
      { kind: 'thinking', index: 1, literal: '"hm\\n"' },
    ],
    [
      'tool arguments',
      '{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Par"}}',
      { kind: 'input_json', index: 2, literal: '"{\\"city\\": \\"Par"' },
    ],
  ];
  for (const [name, data, expected] of cases) {
    const got = scanFastDelta(data);
    t.same(got, expected, name);
    const parsed = JSON.parse(data) as { index: number; delta: Record<string, string> };
    const field = { text: 'text', thinking: 'thinking', input_json: 'partial_json' }[expected.kind]!;
    t.equal(JSON.parse(got!.literal), parsed.delta[field], `${name}: same value as the full parse`);
    t.equal(got!.index, parsed.index, `${name}: same index`);
  }
});

t.test('not recognised: invalid strings, near-miss shapes, extra fields', async (t) => {
  const cases: Array<[string, string]> = [
    // Invalid JSON strings (the full parse must reject them, so the fast path may not accept them).
    ['raw newline', text('a\nb')],
    ['raw tab', text('a\tb')],
    ['raw NUL', text('\x00')],
    ['raw U+001F', text('\x1f')],
    ['unknown escape \\x', text('\\x41')],
    ['unknown escape \\a', text('\\a')],
    ['escaped single quote', text("\\'")],
    ['\\u with three hex digits', text('\\u00e')],
    ['\\u with a non-hex digit', text('\\u00eg')],
    ['\\U upper case', text('\\U00e9')],
    ['backslash escaping the closing quote', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"}}'],
    ['unescaped quote inside', text('a"b')],
    // Raw surrogates that are not a pair: UTF-8 cannot carry them, so the slow path escapes them.
    ['raw lone high surrogate', text('\ud83d')],
    ['raw lone low surrogate', text('\ude00')],
    ['raw pair reversed', text('\ude00\ud83d')],
    // Near misses of the shape.
    ['index with a leading zero', text('x', '01')],
    ['negative index', text('x', '-1')],
    ['fractional index', text('x', '0.0')],
    ['exponent index', text('x', '1e2')],
    ['ten-digit index', text('x', '1234567890')],
    ['empty index', text('x', '')],
    ['index as a string', text('x', '"0"')],
    ['space after a colon', '{"type":"content_block_delta","index": 0,"delta":{"type":"text_delta","text":"x"}}'],
    ['trailing space', `${text('x')} `],
    ['trailing newline', `${text('x')}\n`],
    ['leading space', ` ${text('x')}`],
    ['missing closing brace', text('x').slice(0, -1)],
    ['one brace too many', `${text('x')}}`],
    ['a tab between the last braces', `${text('x').slice(0, -1)}\t}`],
    ['a space before the delta closes', text('x').replace('"}}', '" }}')],
    ['padding and a third brace', `${text('x').slice(0, -1)}  }}`],
    ['keys in another order', '{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}'],
    ['delta keys in another order', '{"type":"content_block_delta","index":0,"delta":{"text":"x","type":"text_delta"}}'],
    ['text as a number', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":1}}'],
    ['text as null', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":null}}'],
    ['field of another kind', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","thinking":"x"}}'],
    ['signature delta', '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"x"}}'],
    ['citations delta', '{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}}'],
    ['extra field in the delta', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","extra":1}}'],
    ['extra field in the event', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"},"extra":1}'],
    ['extra field in the middle', '{"type":"content_block_delta","index":0,"x":1,"delta":{"type":"text_delta","text":"x"}}'],
    ['other event type', '{"type":"content_block_start","index":0,"delta":{"type":"text_delta","text":"x"}}'],
    ['escaped key', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","tex\\u0074":"x"}}'],
    ['not JSON at all', 'content_block_delta'],
    ['empty', ''],
    ['too long', text('a'.repeat(MAX_FAST_DELTA_CHARS))],
  ];
  for (const [name, data] of cases) t.equal(scanFastDelta(data), null, name);
});

t.test('the longest recognised event is just under the limit', async (t) => {
  const frame = text('').length;
  t.ok(scanFastDelta(text('a'.repeat(MAX_FAST_DELTA_CHARS - frame))), 'at the limit');
  t.equal(scanFastDelta(text('a'.repeat(MAX_FAST_DELTA_CHARS - frame + 1))), null, 'one over');
});
