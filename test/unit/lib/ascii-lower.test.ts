// ASCII case folding: the 26 capitals become their small letters, every other code stays as it is
// (the small letters, digits, punctuation, and codes beyond ASCII such as Latin-1's capitals).
import t from 'tap';
import { lowerAscii } from '../../../src/lib/ascii-lower.js';

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
