// The named-event reader against the general parser: for every stream, split anywhere, it hands over
// the same events (name and data) in the same order, whether it read them in place, as the hot event,
// or gave the stream up to the general parser at some event.
import t from 'tap';
import { NamedEventReader } from '../../../../src/dialects/sse/named-events.js';
import { SseParser } from '../../../../src/dialects/sse/parser.js';
import { bytewise, everySplit, providerFixtures, withLineEnds } from './fixture-data.js';

const HOT = { name: 'content_block_delta', dataHead: '{"type":"content_block_delta","index":' };

/** What the reader hands over, as [name, data] pairs, and how: 'hot', 'named' or 'general'. */
function read(chunks: Buffer[], hot = true): { events: string; ways: Set<string> } {
  const events: Array<[string | undefined, string]> = [];
  const ways = new Set<string>();
  const reader = new NamedEventReader(
    {
      named(bytes, _view, ns, ne, ds, de) {
        ways.add('named');
        events.push([bytes.toString('utf8', ns, ne), bytes.toString('utf8', ds, de)]);
      },
      event(ev) {
        ways.add('general');
        events.push([ev.event, ev.data]);
      },
      hot(bytes, _view, afterHead, de) {
        ways.add('hot');
        events.push([HOT.name, HOT.dataHead + bytes.toString('utf8', afterHead, de)]);
      },
    },
    hot ? { hot: HOT } : {},
  );
  for (const c of chunks) reader.push(c);
  reader.end();
  return { events: JSON.stringify(events), ways };
}

function parse(chunks: Buffer[]): string {
  const events: Array<[string | undefined, string]> = [];
  const parser = new SseParser((ev) => events.push([ev.event, ev.data]));
  for (const c of chunks) parser.push(c);
  parser.end();
  return JSON.stringify(events);
}

t.test('recorded streams: the events the general parser dispatches, split anywhere, hot or not', async (t) => {
  for (const { name, bytes } of providerFixtures()) {
    const expected = parse([bytes]);
    t.equal(read([bytes]).events, expected, `${name}: whole`);
    t.equal(read([bytes], false).events, expected, `${name}: no hot event`);
    let agree = true;
    for (const parts of everySplit(bytes)) agree &&= read(parts).events === expected;
    t.ok(agree, `${name}: every split`);
    t.equal(read(bytewise(bytes)).events, expected, `${name}: byte by byte`);
  }
});

t.test("the provider's streams are read in place, their deltas as the hot event", async (t) => {
  const bytes = providerFixtures().find((f) => f.name === 'anthropic-stream-tool-use.sse')!.bytes;
  t.same([...read([bytes]).ways].sort(), ['hot', 'named']);
});

t.test('anything outside the usual shape goes to the general parser from that event on, with the same result', async (t) => {
  const usual = 'event: message_start\ndata: {"a":1}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{}}\n\n';
  const cases: Array<[string, string]> = [
    ['CRLF line ends', withLineEnds(Buffer.from(usual), '\r\n').toString()],
    ['CR line ends', withLineEnds(Buffer.from(usual), '\r').toString()],
    ['a BOM first', `\ufeff${usual}`],
    ['a comment between events', `${usual}: keep-alive\n\n${usual}`],
    ['a nameless event', `${usual}data: {"b":2}\n\n${usual}`],
    ['two data lines', `${usual}event: x\ndata: 1\ndata: 2\n\n${usual}`],
    ['an id field', `${usual}event: x\nid: 7\ndata: 1\n\n${usual}`],
    ['a field without its space', `${usual}event:x\ndata:1\n\n${usual}`],
    ['a name with no data', `${usual}event: x\n\n${usual}`],
    ['blank lines between events', `\n\n${usual}\n\n\n${usual}`],
    ['a U+FEFF starting a later event', `${usual}\ufeffevent: x\ndata: 1\n\n`],
    ['a cut last event', `${usual}event: x\ndata: 1\n`],
    ['non-ASCII text', `${usual}event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo ✓ 😀"}}\n\n`],
  ];
  for (const [what, text] of cases) {
    const bytes = Buffer.from(text);
    const expected = parse([bytes]);
    let agree = read([bytes]).events === expected;
    for (const parts of everySplit(bytes)) agree &&= read(parts).events === expected;
    t.ok(agree, `${what}: the parser's events, split anywhere`);
  }
});

t.test('a long event arriving in many chunks: the same events (the general parser reads on past 64 KiB)', async (t) => {
  const long = `event: message_start\ndata: {"a":1}\n\nevent: content_block_delta\ndata: {"text":"${'x'.repeat(200 * 1024)}"}\n\nevent: message_stop\ndata: {}\n\n`;
  const bytes = Buffer.from(long);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 1000) chunks.push(bytes.subarray(i, i + 1000));
  const r = read(chunks);
  t.equal(r.events, parse([bytes]));
  t.ok(r.ways.has('general'));
});

t.test('an event larger than the limit throws, in place or in the general parser', async (t) => {
  const small = (text: string) => () => {
    const reader = new NamedEventReader({ named() {}, event() {} }, { maxEventChars: 64 });
    reader.push(Buffer.from(text));
  };
  t.throws(small(`event: x\ndata: ${'x'.repeat(100)}`), { code: 'SSE_EVENT_TOO_LARGE' });
  t.throws(small(`\r\nevent: x\ndata: ${'x'.repeat(100)}`), { code: 'SSE_EVENT_TOO_LARGE' });
});
