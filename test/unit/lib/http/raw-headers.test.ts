// An answer's raw header list: copied out of the bytes undici read it from (in one stretch when the
// entries lie in order in one buffer, entry by entry otherwise); one name looked up alone, and several
// looked up in one pass, agree on every list (names in any letter case, repeated, of equal lengths, absent).
import t from 'tap';
import fc from 'fast-check';
import { HeaderNames, RawHeaders, rawHeader } from '../../../../src/lib/http/raw-headers.js';

/** Each entry a buffer of its own. */
const separate = (pairs: Array<[string, string]>) => pairs.flatMap(([n, v]) => [Buffer.from(n, 'latin1'), Buffer.from(v, 'latin1')]);

/** As undici hands them over: views on one read buffer holding the head as it came (`Name: value` lines). */
function viewsOnOneRead(pairs: Array<[string, string]>): Buffer[] {
  const read = Buffer.from(`HTTP/1.1 200 OK\r\n${pairs.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n{"body":1}`, 'latin1');
  const views: Buffer[] = [];
  let at = read.indexOf('\r\n') + 2;
  for (const [n, v] of pairs) {
    views.push(read.subarray(at, at + n.length));
    at += n.length + 2;
    views.push(read.subarray(at, at + Buffer.byteLength(v, 'latin1')));
    at += Buffer.byteLength(v, 'latin1') + 2;
  }
  return views;
}

const raw = (pairs: Array<[string, string]>) => RawHeaders.copyOf(separate(pairs));

t.test('copyOf: the same entries however they lie, and none of the bytes they were read from', async (t) => {
  // The last value is UTF-8 bytes (café) written as latin-1 characters: every byte comes back as it came.
  const pairs: Array<[string, string]> = [['Content-Type', 'text/event-stream'], ['request-id', 'req_1'], ['X-Empty', ''], ['retry-after', '3'], ['x-note', 'caf\u00c3\u00a9']];
  const ways: Array<[string, Buffer[]]> = [
    ['views in order on one read (copied in one stretch)', viewsOnOneRead(pairs)],
    ['a buffer per entry', separate(pairs)],
    ['views on one read, out of order', (() => { const v = viewsOnOneRead(pairs); return [v[2]!, v[3]!, v[0]!, v[1]!, ...v.slice(4)]; })()],
    ['a name joined from two reads (undici concatenates it)', (() => { const v = viewsOnOneRead(pairs); v[2] = Buffer.concat([v[2]!.subarray(0, 3), v[2]!.subarray(3)]); return v; })()],
  ];
  for (const [name, list] of ways) {
    const copy = RawHeaders.copyOf(list);
    const want = list.map((b) => b.toString('latin1'));
    t.same(copy.list().map((b) => b.toString('latin1')), want, `${name}: the entries`);
    t.same(Buffer.concat(copy.list()), Buffer.concat(list), `${name}: the bytes`);
    t.equal(copy.entries, list.length, `${name}: the count`);
    for (const b of list) b.fill(0x21);
    t.same(copy.list().map((b) => b.toString('latin1')), want, `${name}: kept when the read buffer is reused`);
  }
  const none = RawHeaders.copyOf([]);
  t.equal(none.entries, 0);
  t.same(none.list(), []);
  t.equal(rawHeader(none, 'content-type'), undefined);
});

t.test('valuesIn, table-driven', async (t) => {
  const names = new HeaderNames(['anthropic-ratelimit-requests-remaining', 'anthropic-ratelimit-input-tokens-reset', 'request-id', 'x-should-retry']);
  const cases: Array<[string, Array<[string, string]>, unknown[]]> = [
    ['none of them', [['content-type', 'application/json']], [undefined, undefined, undefined, undefined]],
    [
      'two names of one length told apart, in the order asked',
      [['anthropic-ratelimit-input-tokens-reset', 'r'], ['anthropic-ratelimit-input-tokens-limit', 'l'], ['anthropic-ratelimit-requests-remaining', '7']],
      ['7', 'r', undefined, undefined],
    ],
    ['any letter case', [['Request-ID', 'req_1'], ['X-SHOULD-RETRY', 'true']], [undefined, undefined, 'req_1', 'true']],
    ['a repeated header is a list, in its order', [['x-should-retry', 'a'], ['request-id', 'r'], ['X-Should-Retry', 'b'], ['x-should-retry', 'c']], [undefined, undefined, 'r', ['a', 'b', 'c']]],
    ['latin-1 values kept as they came', [['request-id', 'caf\u00e9']], [undefined, undefined, 'caf\u00e9', undefined]],
  ];
  for (const [name, pairs, want] of cases) {
    t.same(names.valuesIn(raw(pairs)), want, name);
    t.same(names.valuesIn(RawHeaders.copyOf(viewsOnOneRead(pairs))), want, `${name} (views on one read)`);
  }
});

t.test('property: valuesIn gives what rawHeader gives for each name', async () => {
  const pool = ['request-id', 'Request-Id', 'x-should-retry', 'retry-after', 'retry-after-ms', 'content-type', 'a', 'A', 'b', 'ab', 'ba'];
  const asked = ['request-id', 'x-should-retry', 'retry-after', 'retry-after-ms', 'a', 'ab'];
  const names = new HeaderNames(asked);
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...pool), fc.string({ maxLength: 3 })), { maxLength: 12 }), (pairs) => {
      const list = raw(pairs);
      const one = asked.map((n) => rawHeader(list, n));
      if (JSON.stringify(names.valuesIn(list)) !== JSON.stringify(one)) throw new Error(`${JSON.stringify(pairs)}: ${JSON.stringify(names.valuesIn(list))} / ${JSON.stringify(one)}`);
      // Read the way undici reads a head: the same values. (No CR or LF in a value: a head cannot hold one.)
      if (pairs.every(([, v]) => !/[\r\n]/.test(v))) {
        const fromRead = RawHeaders.copyOf(viewsOnOneRead(pairs));
        if (JSON.stringify(names.valuesIn(fromRead)) !== JSON.stringify(one)) throw new Error(`${JSON.stringify(pairs)}: read in one stretch, ${JSON.stringify(names.valuesIn(fromRead))}`);
      }
    }),
    { numRuns: 500 },
  );
});
