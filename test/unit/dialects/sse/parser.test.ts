import t from 'tap';
import { SseEventTooLargeError, SseParser, type SseEvent } from '../../../../src/dialects/sse/parser.js';
import { bytewise, everySplit, providerFixtures, withLineEnds } from './fixture-data.js';

function parse(chunks: Array<Buffer | string>, options: { maxEventChars?: number } = {}): SseEvent[] {
  const events: SseEvent[] = [];
  const p = new SseParser((ev) => events.push(ev), options);
  for (const c of chunks) p.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : c);
  p.end();
  return events;
}

const textCases: Array<[string, string, SseEvent[]]> = [
  ['event and data', 'event: a\ndata: {"x":1}\n\n', [{ event: 'a', data: '{"x":1}' }]],
  ['no space after the colon', 'event:a\ndata:x\n\n', [{ event: 'a', data: 'x' }]],
  ['only one space is removed', 'data:  x \n\n', [{ event: undefined, data: ' x ' }]],
  ['multi-line data joined with LF', 'data: a\ndata:\ndata: b\n\n', [{ event: undefined, data: 'a\n\nb' }]],
  ['comments are skipped', ': ping\nevent: e\n:x\ndata: d\n\n', [{ event: 'e', data: 'd' }]],
  ['an event without data is not dispatched', 'event: a\n\nevent: b\ndata: 1\n\n', [{ event: 'b', data: '1' }]],
  ['empty data is still an event', 'data:\n\n', [{ event: undefined, data: '' }]],
  ['a bare field name counts as an empty value', 'data\n\n', [{ event: undefined, data: '' }]],
  ['id, retry and unknown fields are ignored', 'id: 7\nretry: 10\ndatax: no\nevents: no\ndata: y\n\n', [{ event: undefined, data: 'y' }]],
  ['event type does not leak to the next event', 'event: a\ndata: 1\n\ndata: 2\n\n', [{ event: 'a', data: '1' }, { event: undefined, data: '2' }]],
  ['blank lines between events', '\n\n\ndata: 1\n\n\n\ndata: 2\n\n', [{ event: undefined, data: '1' }, { event: undefined, data: '2' }]],
  ['an unfinished event at the end is discarded', 'data: 1\n\ndata: 2\n', [{ event: undefined, data: '1' }]],
  ['an unterminated last line is discarded', 'data: 1\n\ndata: 2', [{ event: undefined, data: '1' }]],
  ['CRLF line ends', 'event: a\r\ndata: 1\r\n\r\n', [{ event: 'a', data: '1' }]],
  ['CR line ends', 'event: a\rdata: 1\r\r', [{ event: 'a', data: '1' }]],
  ['mixed line ends', 'data: 1\r\ndata: 2\rdata: 3\n\r\n', [{ event: undefined, data: '1\n2\n3' }]],
  ['a leading BOM is dropped', '\uFEFFdata: 1\n\n', [{ event: undefined, data: '1' }]],
  ['a BOM later on is content', 'data: \uFEFF1\n\n', [{ event: undefined, data: '\uFEFF1' }]],
  ['only one BOM is dropped', '\uFEFF\uFEFFdata: 1\n\n', []],
  ['multi-byte text', 'data: "Grüße — 東京 🎉"\n\n', [{ event: undefined, data: '"Grüße — 東京 🎉"' }]],
];

t.test('the event-stream format, whole and split at every byte', async (t) => {
  for (const [name, text, expected] of textCases) {
    const bytes = Buffer.from(text, 'utf8');
    t.same(parse([bytes]), expected, name);
    let same = true;
    for (const chunks of everySplit(bytes)) same &&= JSON.stringify(parse(chunks)) === JSON.stringify(expected);
    t.ok(same, `${name}: every two-way split`);
    t.same(parse(bytewise(bytes)), expected, `${name}: byte by byte`);
  }
});

t.test('a CR ending one chunk and an LF starting the next make one line end', async (t) => {
  t.same(parse(['data: 1\r', '\ndata: 2\r', '\n\r', '\n']), [{ event: undefined, data: '1\n2' }]);
  t.same(parse(['data: 1\r', '', '\n\r\n']), [{ event: undefined, data: '1' }], 'an empty chunk in between');
  t.same(parse(['data: 1\r', '\r']), [{ event: undefined, data: '1' }], 'CR CR is a blank line');
});

t.test('a BOM split across chunks is still dropped; a partial BOM is content', async (t) => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  t.same(parse([bom.subarray(0, 1), bom.subarray(1, 2), Buffer.concat([bom.subarray(2), Buffer.from('data: x\n\n')])]), [{ event: undefined, data: 'x' }]);
  t.same(parse([Buffer.from([0xef, 0xbb]), Buffer.from('data: x\n\n')]), [], 'broken BOM bytes make the first line an unknown field');
  t.same(parse([Buffer.from([0xef]), Buffer.from('\ndata: x\n\n')]), [{ event: undefined, data: 'x' }]);
});

t.test('recorded provider streams parse the same whole, split anywhere, byte by byte, with CRLF or CR', async (t) => {
  for (const { name, bytes } of providerFixtures()) {
    const whole = parse([bytes]);
    t.ok(whole.length >= 5, `${name}: events found`);
    for (const ev of whole) if (ev.data !== '[DONE]') JSON.parse(ev.data);
    const expected = JSON.stringify(whole);
    let splitsAgree = true;
    for (const chunks of everySplit(bytes)) splitsAgree &&= JSON.stringify(parse(chunks)) === expected;
    t.ok(splitsAgree, `${name}: every split`);
    t.equal(JSON.stringify(parse(bytewise(bytes))), expected, `${name}: byte by byte`);
    for (const eol of ['\r\n', '\r'] as const) {
      const other = withLineEnds(bytes, eol);
      t.equal(JSON.stringify(parse([other])), expected, `${name}: ${JSON.stringify(eol)}`);
      let agree = true;
      for (const chunks of everySplit(other)) agree &&= JSON.stringify(parse(chunks)) === expected;
      t.ok(agree, `${name}: ${JSON.stringify(eol)} every split`);
    }
  }
});

t.test('events above the size limit are an error, whether in one line or many, whole or in pieces', async (t) => {
  const big = `data: ${'x'.repeat(100)}\n\n`;
  t.same(parse([big], { maxEventChars: 200 }).length, 1);
  t.throws(() => parse([big], { maxEventChars: 50 }), SseEventTooLargeError);
  t.throws(() => parse(bytewise(Buffer.from(big)), { maxEventChars: 50 }), SseEventTooLargeError);
  const manyLines = 'data: 0123456789\n'.repeat(10) + '\n';
  t.throws(() => parse([manyLines], { maxEventChars: 100 }), { code: 'SSE_EVENT_TOO_LARGE' });
  const endless = 'data: ' + 'y'.repeat(1000);
  t.throws(() => parse([endless.slice(0, 500), endless.slice(500)], { maxEventChars: 800 }), SseEventTooLargeError);
  t.same(parse([big + big + big], { maxEventChars: 120 }).length, 3, 'the limit is per event');
});
