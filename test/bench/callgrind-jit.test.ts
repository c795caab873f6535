// The JIT naming of a callgrind report: perf map parsing, one name per function whatever its tier,
// the address lookup, and self instructions summed by name.
import t from 'tap';
import { functionName, parsePerfMap, rangeAt, selfByFunction } from '../../bench/tools/callgrind-jit.js';

const MAP = [
  '7f0000001000 200 JS:*handle file:///app/dist/src/gateway/compose.js:10:3',
  '7f0000000400 100 JS:~parse file:///app/dist/src/lib/json.js:1:1',
  '7f0000002000 80 JS:~handle file:///app/dist/src/gateway/compose.js:10:3',
  'not a map line',
  '7f0000003000 40 LazyCompile:*old file:///app/x.js:1:1',
].join('\n');

t.test('a perf map: ranges sorted by start, names without the tier mark', async (t) => {
  const ranges = parsePerfMap(MAP);
  t.same(
    ranges.map((r) => [r.start.toString(16), (r.end - r.start).toString(16), r.name]),
    [
      ['7f0000000400', '100', 'parse file:///app/dist/src/lib/json.js:1:1'],
      ['7f0000001000', '200', 'handle file:///app/dist/src/gateway/compose.js:10:3'],
      ['7f0000002000', '80', 'handle file:///app/dist/src/gateway/compose.js:10:3'],
      ['7f0000003000', '40', 'old file:///app/x.js:1:1'],
    ],
  );
});

t.test('tier marks and the older prefixes give one name', async (t) => {
  const cases: Array<[string, string]> = [
    ['JS:*f a.js:1:1', 'f a.js:1:1'],
    ['JS:~f a.js:1:1', 'f a.js:1:1'],
    ['JS:^f a.js:1:1', 'f a.js:1:1'],
    ['LazyCompile:~f a.js:1:1', 'f a.js:1:1'],
    ['Function:f a.js:1:1', 'f a.js:1:1'],
    ['Builtin:ArrayMap', 'Builtin:ArrayMap'],
  ];
  for (const [given, want] of cases) t.equal(functionName(given), want, given);
});

t.test('an address is found in its range, or not at all', async (t) => {
  const ranges = parsePerfMap(MAP);
  const at = (hex: string) => rangeAt(ranges, parseInt(hex, 16))?.name ?? null;
  t.equal(at('7f0000000400'), 'parse file:///app/dist/src/lib/json.js:1:1', 'the first byte');
  t.equal(at('7f00000004ff'), 'parse file:///app/dist/src/lib/json.js:1:1', 'the last byte');
  t.equal(at('7f0000000500'), null, 'just past it');
  t.equal(at('7f00000011ff'), 'handle file:///app/dist/src/gateway/compose.js:10:3');
  t.equal(at('7f0000000001'), null, 'before every range');
  t.equal(at('7f0000009000'), null, 'after every range');
});

t.test('self instructions by function: JIT addresses named and summed, the rest as callgrind names them', async (t) => {
  const report = [
    '--------------------------------------------------------------------------------',
    '1,000,000 (100.0%)  PROGRAM TOTALS',
    '--------------------------------------------------------------------------------',
    'Ir                  file:function',
    '--------------------------------------------------------------------------------',
    '  400,000 (40.00%)  ???:0x00007f0000001010 [???]',
    '  250,000 (25.00%)  ???:Builtins_StringPrototypeStartsWith [/usr/bin/node]',
    '  200,000 (20.00%)  ???:0x00007f0000002010 [???]',
    '  100,000 (10.00%)  ???:0x00007f0000000410 [???]',
    '   50,000 ( 5.00%)  ???:0x00007f0000009999 [???]',
  ].join('\n');
  const { total, rows } = selfByFunction(report, parsePerfMap(MAP));
  t.equal(total, 1_000_000);
  t.same(rows, [
    { name: 'handle file:///app/dist/src/gateway/compose.js:10:3 [js]', self: 600_000 },
    { name: '???:Builtins_StringPrototypeStartsWith', self: 250_000 },
    { name: 'parse file:///app/dist/src/lib/json.js:1:1 [js]', self: 100_000 },
    { name: '(JIT code not in the map)', self: 50_000 },
  ]);
});
