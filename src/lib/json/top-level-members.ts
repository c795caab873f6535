// The members of a JSON object's top level, found without parsing it: where each name and value
// stands in the text. Works on the text as a string or on its UTF-8 bytes alike, since every
// character that shapes JSON (quotes, braces, brackets, commas, backslashes, whitespace) is ASCII
// and a multi-byte UTF-8 sequence never contains an ASCII byte. Strings are skipped with a native
// search for the closing quote, so the walk costs little more than the object's punctuation.
//
// The text must be valid JSON whose top level is an object (the caller parsed it, or will refuse
// what its parser refuses); on anything else the result is unspecified but the walk ends.

/** A JSON text as a string or as its UTF-8 bytes. */
export type JsonText = string | Uint8Array;

export interface MemberSpan {
  /** Index of the opening quote of the member's name. */
  nameStart: number;
  /** Index of the closing quote of the member's name. */
  nameEnd: number;
  /** Index just past the last character of the member's value. */
  valueEnd: number;
}

export interface TopLevel {
  members: MemberSpan[];
  /** Index of the `}` that closes the object. */
  close: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function codeAt(json: JsonText, i: number): number {
  return typeof json === 'string' ? json.charCodeAt(i) : json[i]!;
}

function nextQuote(json: JsonText, from: number): number {
  return typeof json === 'string' ? json.indexOf('"', from) : json.indexOf(QUOTE, from);
}

/** The index of the quote that ends the string whose text starts at `from` (the text's length if none). */
export function closingQuote(json: JsonText, from: number): number {
  let q = nextQuote(json, from);
  while (q !== -1) {
    let backslashes = 0;
    while (codeAt(json, q - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q;
    q = nextQuote(json, q + 1);
  }
  return json.length;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Where the value that ends before the separator at `at` ends: whitespace before the separator is not part of it. */
function valueEndBefore(json: JsonText, at: number): number {
  let end = at;
  while (isSpace(codeAt(json, end - 1))) end--;
  return end;
}

/** The spans of every top-level member, in order, and where the object closes. */
export function topLevelMembers(json: JsonText): TopLevel {
  const members: MemberSpan[] = [];
  let depth = 0;
  let expectName = false;
  let pending: { nameStart: number; nameEnd: number } | null = null;
  for (let i = 0; i < json.length; i++) {
    const c = codeAt(json, i);
    if (c === QUOTE) {
      const end = closingQuote(json, i + 1);
      if (depth === 1 && expectName) {
        pending = { nameStart: i, nameEnd: end };
        expectName = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [
      if (++depth === 1) expectName = true;
    } else if (c === 0x7d || c === 0x5d) {
      // } or ]
      if (--depth === 0) {
        if (pending !== null) members.push({ ...pending, valueEnd: valueEndBefore(json, i) });
        return { members, close: i };
      }
    } else if (c === 0x2c && depth === 1) {
      // ,
      if (pending !== null) members.push({ ...pending, valueEnd: valueEndBefore(json, i) });
      pending = null;
      expectName = true;
    }
  }
  return { members, close: json.length };
}

/**
 * How many members the top level names, duplicates included: the commas between top-level members,
 * plus one when there is any. Allocates nothing, for the check every request runs
 * (lib/json/duplicate-members.ts).
 */
export function countTopLevelMembers(json: JsonText): number {
  let depth = 0;
  let commas = 0;
  let named = false;
  for (let i = 0; i < json.length; i++) {
    const c = codeAt(json, i);
    if (c === QUOTE) {
      if (depth === 1) named = true;
      i = closingQuote(json, i + 1);
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) break;
    } else if (c === 0x2c && depth === 1) {
      commas++;
    }
  }
  return named ? commas + 1 : 0;
}

/** A member's name, its escapes decoded. */
export function memberName(json: JsonText, span: MemberSpan): string {
  const raw = typeof json === 'string' ? json.slice(span.nameStart, span.nameEnd + 1) : Buffer.from(json.buffer, json.byteOffset + span.nameStart, span.nameEnd + 1 - span.nameStart).toString('utf8');
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}
