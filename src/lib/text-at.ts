// Whether a string holds another at a given place, for the stream readers' per-event checks.
//
// Measured on Node 20 (bench/README.md, issue 35): String#startsWith(prefix, at) compares a character
// at a time, about 3 ns each (230 ns for a 73-character event head), while cutting the same length out
// and comparing it with `===` takes 7 ns: the cut is a view on the text, not a copy, and equality of
// two flat strings is one memory compare. A cut shorter than V8's shortest view (13 characters) is a
// copy, an allocation per compare: short words are compared a character at a time instead.

const SHORTEST_VIEW = 13;

/** text[at, at + expected.length) is `expected`. */
export function textAt(text: string, at: number, expected: string): boolean {
  const n = expected.length;
  if (n >= SHORTEST_VIEW) return text.slice(at, at + n) === expected;
  if (at + n > text.length) return false;
  for (let i = 0; i < n; i++) if (text.charCodeAt(at + i) !== expected.charCodeAt(i)) return false;
  return true;
}

/** text[at, end) starts with `prefix`. */
export function startsAt(text: string, at: number, end: number, prefix: string): boolean {
  return end - at >= prefix.length && textAt(text, at, prefix);
}

/** text[at, end) is `word`. */
export function textIs(text: string, at: number, end: number, word: string): boolean {
  return end - at === word.length && textAt(text, at, word);
}
