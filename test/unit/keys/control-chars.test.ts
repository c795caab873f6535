// Finding N6: a key name with a terminal escape sequence reached the operator's `keys list`. Names with
// control characters are refused at creation (keys and customers); text tables escape any an older row has.
import t from 'tap';
import { validateKeySettings, validCustomerName } from '../../../src/keys/key-input.js';
import { KeyStoreError } from '../../../src/keys/key-store.js';
import { formatTable } from '../../../src/apps/cli/output.js';
import { escapeControlChars, hasControlChars } from '../../../src/lib/control-chars.js';

const HOSTILE: Array<[string, string]> = [
  ['clear screen', 'ci\u001b[2J\u001b[H'],
  ['bell', 'ci\u0007'],
  ['line break', 'ci\nrevoked'],
  ['tab', 'ci\tx'],
  ['DEL', 'ci\u007f'],
  ['C1 CSI', 'ci\u009b2J'],
  ['right-to-left override', 'ci\u202eexe.txt'],
];

t.test('key and customer names with control characters are refused', async (t) => {
  for (const [what, name] of HOSTILE) {
    t.throws(() => validateKeySettings({ customerName: 'acme', name }), new KeyStoreError('key name must not contain control characters'), `key: ${what}`);
    t.throws(() => validCustomerName(name), new KeyStoreError('customer name must not contain control characters'), `customer: ${what}`);
  }
  t.equal(validateKeySettings({ customerName: 'acme', name: 'ci – prod ✓' }).name, 'ci – prod ✓', 'other Unicode is fine');
  t.equal(validCustomerName('Smith, "Jones" & Co'), 'Smith, "Jones" & Co');
});

t.test('text tables show control characters escaped', async (t) => {
  const out = formatTable(['NAME', 'N'], [['ci\u001b[2J', 1], ['x\u202ey', 2]]);
  t.notOk(hasControlChars(out.replace(/\n/g, '')), 'nothing but line ends reaches the terminal');
  t.match(out, /ci\\x1b\[2J/);
  t.match(out, /x\\u202ey/);
  t.equal(escapeControlChars('plain'), 'plain');
});
