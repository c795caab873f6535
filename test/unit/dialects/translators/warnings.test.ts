import t from 'tap';
import { validateHeaderValue } from 'node:http';
import { safeDetail } from '../../../../src/dialects/translators/warnings.js';

t.test('safeDetail: a plain field path is kept as it is', async (t) => {
  t.equal(safeDetail('messages[2].name'), 'messages[2].name');
  t.equal(safeDetail('x-y_z.1'), 'x-y_z.1');
});

t.test('safeDetail: anything else becomes a short, never empty, header-safe token', async (t) => {
  t.equal(safeDetail('bad\r\nname: x'), 'bad??name??x');
  t.equal(safeDetail('a,b'), 'a?b', 'a comma would split the header list');
  t.equal(safeDetail('ünï'), '?n?');
  t.equal(safeDetail(''), '?');
  const long = safeDetail('f'.repeat(200));
  t.equal(long, 'f'.repeat(80) + '...');
  for (const field of ['bad\r\nname', '\u0000', 'x'.repeat(500), '', '😀']) t.doesNotThrow(() => validateHeaderValue('x-test', safeDetail(field)));
});
