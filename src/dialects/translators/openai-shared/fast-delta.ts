// Recognises the provider's most common stream event, a content_block_delta carrying a piece of text,
// thinking or tool-argument JSON, without JSON.parse. JSON.parse of every event was most of the chat
// re-framing cost (bench/micro/chat-chunk.ts); the piece's JSON string literal can instead be spliced
// into the chunk as it came, already escaped.
//
// The guard is strict: the data must be exactly
//   {"type":"content_block_delta","index":<digits>,"delta":{"type":"<kind>_delta","<field>":"<string>"}}
// with only spaces allowed between the last two braces (the provider pads many events there: see the
// recorded streams in test/unit/dialects/sse/fixtures), and a well-formed JSON string: every escape one of \" \\ \/ \b \f \n \r \t \uXXXX, no raw control
// character, no unpaired surrogate (it would not survive UTF-8 encoding). Anything else, including the
// same object with other key order, spacing or an extra field, is not recognised: the caller parses it
// in full.
//
// One regular expression does the whole check: irregexp runs it as native code, which measured ~10×
// faster than the same scan written with charCodeAt (and String#startsWith alone cost more than the
// whole match). Its backtracking stack grows with the string, so long events are left to JSON.parse.

import { JSON_STRING_LITERAL } from './json-literal.js';
import { DELTA_HEAD, DELTA_TYPE_AT, KIND_OPENERS, type DeltaKind } from '../../anthropic/delta-bytes.js';

export interface FastDelta {
  kind: DeltaKind;
  /** The provider's content block index. */
  index: number;
  /** The piece as a JSON string literal, quotes included, escaped as the provider escaped it. */
  literal: string;
}

/** Longer events take the full parse: real deltas are a few words. */
export const MAX_FAST_DELTA_CHARS = 4096;

// The provider's delta layout, as ../../anthropic/delta-bytes.ts reads it in bytes.
const PREFIX = DELTA_HEAD;
const DELTA = DELTA_TYPE_AT;
const { text: TEXT, thinking: THINKING, input_json: INPUT_JSON } = KIND_OPENERS;

// The index has no leading zero (JSON has none) and at most 9 digits (exact as a number). Without the
// u flag the character classes are UTF-16 code units, which is what makes the surrogate checks work.
const SHAPE = new RegExp(
  '^' +
    escape(PREFIX) +
    '(?:0|[1-9][0-9]{0,8})' +
    escape(DELTA) +
    `(?:${[TEXT, THINKING, INPUT_JSON].map(escape).join('|')})` +
    JSON_STRING_LITERAL.slice(1) + // the opening quote is the end of the prefix above
    '\\} *\\}$',
);

const DIGIT_0 = 0x30;
const COMMA = 0x2c;
const SPACE = 0x20;

/** The delta in `data`, or null if `data` is not exactly the shape above. */
export function scanFastDelta(data: string): FastDelta | null {
  if (data.length > MAX_FAST_DELTA_CHARS || !SHAPE.test(data)) return null;
  // The shape is known now: the index runs to the first comma, the kind's first letters tell it apart.
  let i = PREFIX.length;
  let index = 0;
  for (let c = data.charCodeAt(i); c !== COMMA; c = data.charCodeAt(++i)) index = index * 10 + (c - DIGIT_0);
  i += DELTA.length;
  let kind: DeltaKind;
  if (data.charCodeAt(i) === 0x69 /* i */) {
    kind = 'input_json';
    i += INPUT_JSON.length;
  } else if (data.charCodeAt(i + 1) === 0x65 /* te */) {
    kind = 'text';
    i += TEXT.length;
  } else {
    kind = 'thinking';
    i += THINKING.length;
  }
  let close = data.length - 2; // the delta's closing brace, before any padding
  while (data.charCodeAt(close) === SPACE) close--;
  return { kind, index, literal: data.slice(i - 1, close) };
}

function escape(s: string): string {
  return s.replace(/[{}]/g, '\\$&');
}
