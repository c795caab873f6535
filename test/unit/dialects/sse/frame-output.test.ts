// FrameOutput: text alone stays text; once bytes come, everything since the last take is one buffer, in
// the order it was added, however far it has to grow.
import t from 'tap';
import { FrameOutput } from '../../../../src/dialects/sse/frame-output.js';

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
