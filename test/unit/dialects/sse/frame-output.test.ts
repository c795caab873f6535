// FrameOutput: text alone stays text; once bytes come, everything since the last take is one buffer, in
// the order it was added, however far it has to grow; a hot frame's close is held back and joined to its
// next open; a buffer is written again only when the caller says what was taken from it has left.
import t from 'tap';
import { FrameOutput, frameBytes, type FrameBytes } from '../../../../src/dialects/sse/frame-output.js';

t.test('text alone is taken as one string; nothing is the empty string', async (t) => {
  const out = new FrameOutput();
  t.equal(out.take(), '');
  out.addText('data: a\n\n');
  out.addText('data: b\n\n');
  t.equal(out.take(), 'data: a\n\ndata: b\n\n');
  t.equal(out.take(), '', 'taking empties it');
});

t.test('text, bytes, a range and digits in order, in one buffer', async (t) => {
  const out = new FrameOutput();
  out.expect(4);
  out.addText('é:');
  out.addBytes(Buffer.from('[head]'));
  const source = Buffer.from('...piece...');
  out.addRange(source, 3, 8);
  out.addDecimal(0);
  out.addDecimal(907);
  out.addText('ü');
  const taken = out.take();
  t.ok(Buffer.isBuffer(taken));
  t.equal(taken.toString(), 'é:[head]piece0907ü');
  t.equal(out.take(), '', 'the next chunk starts empty');
});

t.test('grows past its size hint, long ranges and short, and gives back a fresh buffer each time', async (t) => {
  const out = new FrameOutput(8);
  const long = Buffer.alloc(10_000, 0x61);
  let expected = '';
  for (let i = 0; i < 50; i++) {
    out.addBytes(Buffer.from(`<${i}>`));
    out.addRange(long, 0, i * 100);
    out.addDecimal(i * 1_000_003);
    expected += `<${i}>${'a'.repeat(i * 100)}${i * 1_000_003}`;
  }
  const first = out.take() as Buffer;
  t.equal(first.toString(), expected);
  out.addBytes(Buffer.from('next'));
  const second = out.take() as Buffer;
  t.equal(second.toString(), 'next');
  t.equal(first.toString(), expected, 'a taken buffer is not written again (the socket may still hold it)');
});

t.test('told the earlier output has left, the next chunk goes into the same buffer; not told, into a new one', async (t) => {
  const out = new FrameOutput();
  const chunk = (text: string, earlierSent: boolean): Buffer => {
    out.expect(100, earlierSent);
    out.addBytes(Buffer.from(text));
    return out.take() as Buffer;
  };
  const first = chunk('first', false);
  const second = chunk('second', false);
  // Small buffers are slices of Node's shared pool: the same memory is the same buffer and offset.
  const samePlace = (a: Buffer, b: Buffer) => a.buffer === b.buffer && a.byteOffset === b.byteOffset;
  t.notOk(samePlace(second, first), 'not told: a new buffer');
  t.equal(first.toString(), 'first', 'and the one before unchanged');
  const third = chunk('third', true);
  t.ok(samePlace(third, second), 'told: the buffer of the last take');
  t.equal(third.toString(), 'third');
  // Being told once covers one chunk: the take after it (as for a stream's end) gets a new buffer.
  out.addBytes(Buffer.from('end'));
  const end = out.take() as Buffer;
  t.notOk(samePlace(end, third), 'a take without expect() does not reuse');
  t.equal(third.toString(), 'third');
  // A kept buffer too small for the chunk expected is not used.
  out.expect(10_000, true);
  out.addBytes(Buffer.from('bigger'));
  const bigger = out.take() as Buffer;
  t.notOk(samePlace(bigger, end), 'a larger chunk: a larger buffer');
  t.ok(bigger.buffer.byteLength >= 20_000);
});

t.test('a buffer above 64 KiB is not kept for the next chunk', async (t) => {
  const out = new FrameOutput();
  out.expect(40_000);
  out.addRange(Buffer.alloc(40_000, 0x62), 0, 40_000);
  const large = out.take() as Buffer;
  t.ok(large.buffer.byteLength > 64 * 1024);
  out.expect(40_000, true);
  out.addBytes(Buffer.from('x'));
  const next = out.take() as Buffer;
  t.not(next.buffer, large.buffer, 'not kept: a stream holds no more than 64 KiB between chunks');
  t.equal(large.toString(), 'b'.repeat(40_000));
});

t.test('a hot frame closed and opened again goes in as one joined copy, and a held close always comes out', async (t) => {
  const a = frameBytes('<a>', '</a>');
  const b = frameBytes('<b>', '</b>');
  const source = Buffer.from('0123456789');
  const cases: Array<{ name: string; run: (out: FrameOutput) => void; expected: string }> = [
    { name: 'one frame, closed at the take', run: (o) => hot(o, a, 1, 3), expected: '<a>12</a>' },
    { name: 'the same frame twice: close and open joined', run: (o) => (hot(o, a, 0, 2), hot(o, a, 2, 4)), expected: '<a>01</a><a>23</a>' },
    { name: 'another frame after it', run: (o) => (hot(o, a, 0, 1), hot(o, b, 1, 2), hot(o, a, 2, 3)), expected: '<a>0</a><b>1</b><a>2</a>' },
    { name: 'text after a frame', run: (o) => (hot(o, a, 0, 1), o.addText('t')), expected: '<a>0</a>t' },
    { name: 'bytes, a range and digits after a frame', run: (o) => (hot(o, a, 0, 1), o.addBytes(Buffer.from('x')), hot(o, a, 1, 2), o.addRange(source, 9, 10), hot(o, b, 2, 3), o.addDecimal(7)), expected: '<a>0</a>x<a>1</a>9<b>2</b>7' },
    { name: 'content added inside an open frame', run: (o) => (o.openFrame(a), o.addRange(source, 0, 1), o.addBytes(Buffer.from('+')), o.addDecimal(5), o.closeFrame(a)), expected: '<a>0+5</a>' },
  ];
  for (const c of cases) {
    const out = new FrameOutput(4);
    c.run(out);
    t.equal(String(out.take()), c.expected, c.name);
    t.equal(out.take(), '', `${c.name}: nothing held back after the take`);
  }
  // A frame whose joined bytes differ from close + open shows which went in.
  const marked: FrameBytes = { open: Buffer.from('<m>'), close: Buffer.from('</m>'), closeThenOpen: Buffer.from('|') };
  const run = new FrameOutput(4);
  hot(run, marked, 0, 1);
  hot(run, marked, 1, 2);
  hot(run, marked, 2, 3);
  t.equal(String(run.take()), '<m>0|1|2</m>', 'a run of one frame: its open once, the joined copy between, its close once');
  const joined = new FrameOutput(4);
  hot(joined, a, 0, 1);
  t.equal(String(joined.take()), '<a>0</a>', 'a take ends the frame');
  hot(joined, a, 1, 2);
  t.equal(String(joined.take()), '<a>1</a>', 'the next chunk opens it anew (the close went out with the last take)');

  function hot(out: FrameOutput, frame: FrameBytes, start: number, end: number): void {
    out.openFrame(frame);
    out.addRange(source, start, end);
    out.closeFrame(frame);
  }
});
