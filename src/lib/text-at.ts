// Whether a string holds another at a given place, for the stream readers' per-event checks.
//
// Measured on Node 20 (bench/README.md, issue 35): String#startsWith(prefix, at) compares a character
// at a time, about 3 ns each (230 ns for a 73-character event head), while cutting the same length out
// and comparing it with `===` takes 7 ns: the cut is a view on the text, not a copy, and equality of
// two flat strings is one memory compare.

/** text[at, at + expected.length) is `expected`. */
export function textAt(text: string, at: number, expected: string): boolean {
  return text.slice(at, at + expected.length) === expected;
}
