// ASCII case folding: the 26 capitals become their small letters, every other code stays as it is
// (the small letters, digits, punctuation, and codes beyond ASCII such as Latin-1's capitals).
import t from 'tap';
import { lowerAscii, spellsLowerAscii } from '../../../src/lib/ascii-lower.js';

t.test('capitals fold, nothing else moves', async (t) => {
  const cases: Array<[string, number, number]> = [
    ['A', 0x41, 0x61],
    ['Z', 0x5a, 0x7a],
    ['@ (just before A)', 0x40, 0x40],
    ['[ (just after Z)', 0x5b, 0x5b],
    ['a', 0x61, 0x61],
    ['-', 0x2d, 0x2d],
    ['À (Latin-1, not ASCII)', 0xc0, 0xc0],
  ];
  for (const [name, code, want] of cases) t.equal(lowerAscii(code), want, name);
  for (let code = 0; code < 256; code++) {
    const char = String.fromCharCode(code);
    const want = code < 0x80 ? char.toLowerCase().charCodeAt(0) : code;
    if (lowerAscii(code) !== want) t.fail(`code ${code}`);
  }
  t.pass('every code below 256 as toLowerCase folds ASCII');
});

t.test('spellsLowerAscii: a stretch of text against small letters, in any ASCII case', async (t) => {
  const cases: Array<[string, string, number, string, boolean]> = [
    ['the same letters', 'text/event-stream', 0, 'text/event-stream', true],
    ['capitals', 'Text/Event-Stream; charset=utf-8', 0, 'text/event-stream', true],
    ['at an offset', 'x: Request-ID', 3, 'request-id', true],
    ['one letter differs, at the end', 'request-ie', 0, 'request-id', false],
    ['one letter differs, at the start', 'sequest-id', 0, 'request-id', false],
    ['a capital where the other side has punctuation', 'request@id', 0, 'request`id', false],
    ['Latin-1 capitals do not fold', '\u00c0', 0, '\u00e0', false],
    ['nothing to spell', 'abc', 1, '', true],
  ];
  for (const [name, text, at, lower, want] of cases) t.equal(spellsLowerAscii(text, at, lower), want, name);
});
