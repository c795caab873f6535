// Whether a string holds another at a given place, for the general SSE parser's field names.
//
// String#startsWith(prefix, at) measured about 3 ns a character on Node 20 (bench/README.md, issue 35),
// more than this loop the compiler inlines; the field names the parser compares are a few characters.
// (The stream readers compare bytes instead: lib/bytes/bytes-at.ts.)

/** text[at, at + expected.length) is `expected`. */
export function textAt(text: string, at: number, expected: string): boolean {
  const n = expected.length;
  if (at + n > text.length) return false;
  for (let i = 0; i < n; i++) if (text.charCodeAt(at + i) !== expected.charCodeAt(i)) return false;
  return true;
}
