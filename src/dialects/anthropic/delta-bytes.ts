// The provider's most common stream event, a content_block_delta carrying a piece of text, thinking or
// tool-argument JSON, read where it lies in the chunk's bytes: its index, its kind and where its JSON
// string literal starts and ends. The relayed-output count and the chat stream's re-framing both start
// here, so a delta's head is read once.
//
// The layout read is exactly the provider's own:
//   {"type":"content_block_delta","index":<digits>,"delta":{"type":"<kind>_delta","<field>":"<string>"}}
// with only spaces allowed between the last two braces. Anything else (other key order, spacing, an
// extra field) is not this layout: the callers read such an event the general way.
import { BytePattern } from '../../lib/bytes/bytes-at.js';

/** A delta's data in the provider's own layout, up to its index's digits. */
export const DELTA_HEAD = '{"type":"content_block_delta","index":';

/** The hot event of every provider stream a reader reads (named-events.ts): the delta, by its head. */
export const HOT_DELTA = Object.freeze({ name: 'content_block_delta', dataHead: DELTA_HEAD });

export type DeltaKind = 'text' | 'thinking' | 'input_json';

/** Where a delta's parts lie; filled by readDeltaHead (one object per reader, reused). */
export interface DeltaPlace {
  index: number;
  kind: DeltaKind;
  /** The first byte of the value, just after its opening quote. */
  valueStart: number;
}

export function emptyDeltaPlace(): DeltaPlace {
  return { index: 0, kind: 'text', valueStart: 0 };
}

/** From the comma after the index to the delta's type. */
export const DELTA_TYPE_AT = ',"delta":{"type":"';
/** What follows DELTA_TYPE_AT, by kind, up to and including the value's opening quote. */
export const KIND_OPENERS: Readonly<Record<DeltaKind, string>> = {
  text: 'text_delta","text":"',
  thinking: 'thinking_delta","thinking":"',
  input_json: 'input_json_delta","partial_json":"',
};
const TEXT_KIND = new BytePattern(DELTA_TYPE_AT + KIND_OPENERS.text);
const THINKING_KIND = new BytePattern(DELTA_TYPE_AT + KIND_OPENERS.thinking);
const INPUT_KIND = new BytePattern(DELTA_TYPE_AT + KIND_OPENERS.input_json);
const KIND_AT = DELTA_TYPE_AT.length;
/** JSON has no leading zero; nine digits are exact as a number. */
const MAX_INDEX_DIGITS = 9;

/**
 * Reads a delta whose DELTA_HEAD ends at `digits`, up to its value's opening quote, into `place`;
 * false when the data up to `end` is not the provider's layout. The kind is told from its first
 * letters, so one compare checks the rest.
 */
export function readDeltaHead(bytes: Buffer, view: DataView, digits: number, end: number, place: DeltaPlace): boolean {
  let i = digits;
  let index = 0;
  while (i < end) {
    const c = bytes[i]!;
    if (c < 0x30 || c > 0x39) break;
    index = index * 10 + (c - 0x30);
    i++;
  }
  const count = i - digits;
  if (count === 0 || count > MAX_INDEX_DIGITS || (count > 1 && bytes[digits] === 0x30) || i + KIND_AT + 1 >= end) return false;
  const first = bytes[i + KIND_AT];
  let pattern: BytePattern;
  let kind: DeltaKind;
  if (first === 0x69 /* i */) {
    pattern = INPUT_KIND;
    kind = 'input_json';
  } else if (first === 0x74 /* t */) {
    const text = bytes[i + KIND_AT + 1] === 0x65; /* e */
    pattern = text ? TEXT_KIND : THINKING_KIND;
    kind = text ? 'text' : 'thinking';
  } else return false;
  if (!pattern.startsAt(view, i, end)) return false;
  place.index = index;
  place.kind = kind;
  place.valueStart = i + pattern.length;
  return true;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;
const SPACE = 0x20;

/**
 * Where the closing quote of the value starting at `valueStart` is, when the value is a well-formed
 * JSON string and only `}`, spaces and `}` follow it up to `end`; else -1. Well-formed: every escape
 * one of \" \\ \/ \b \f \n \r \t \uXXXX, no raw control character, and valid UTF-8 (so no lone
 * surrogate: the piece survives being copied to the client as it came). Bytes that are not valid
 * UTF-8 are left to the general path, which decodes them to U+FFFD.
 */
export function literalEnd(bytes: Buffer, valueStart: number, end: number): number {
  let i = valueStart;
  for (;;) {
    if (i >= end) return -1;
    const c = bytes[i]!;
    if (c === QUOTE) break;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      i = escapeEnd(bytes, i + 1, end);
    } else if (c < 0x80) {
      i++;
    } else {
      i = utf8End(bytes, i, c, end);
    }
    if (i === -1) return -1;
  }
  const close = i;
  i++;
  if (bytes[i] !== CLOSE_BRACE) return -1;
  i++;
  while (i < end && bytes[i] === SPACE) i++;
  return i + 1 === end && bytes[i] === CLOSE_BRACE ? close : -1;
}

/** Past the escape whose letter is at `at`, or -1. */
function escapeEnd(bytes: Buffer, at: number, end: number): number {
  if (at >= end) return -1;
  switch (bytes[at]) {
    case QUOTE:
    case BACKSLASH:
    case 0x2f: // /
    case 0x62: // b
    case 0x66: // f
    case 0x6e: // n
    case 0x72: // r
    case 0x74: // t
      return at + 1;
    case 0x75: // u
      if (at + 5 > end) return -1;
      for (let k = at + 1; k < at + 5; k++) if (!isHex(bytes[k]!)) return -1;
      return at + 5;
    default:
      return -1;
  }
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Past the UTF-8 sequence whose lead byte `lead` is at `at`, or -1 when it is not valid UTF-8. */
function utf8End(bytes: Buffer, at: number, lead: number, end: number): number {
  let n: number;
  // The second byte's range narrows after E0, ED, F0 and F4 (no overlong forms, no surrogates, nothing past U+10FFFF).
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) n = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    n = 2;
    if (lead === 0xe0) low = 0xa0;
    else if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    n = 3;
    if (lead === 0xf0) low = 0x90;
    else if (lead === 0xf4) high = 0x8f;
  } else return -1;
  if (at + n >= end) return -1;
  const second = bytes[at + 1]!;
  if (second < low || second > high) return -1;
  for (let k = at + 2; k <= at + n; k++) if ((bytes[k]! & 0xc0) !== 0x80) return -1;
  return at + n + 1;
}
