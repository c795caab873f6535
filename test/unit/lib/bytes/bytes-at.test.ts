// BytePattern compares eight bytes at a time (an ASCII pattern of at least eight bytes) or four: it
// agrees with Buffer#equals on the same range for patterns of every length (whole words, an overlapping
// last word, a tail, shorter than a word), at the edges of the bytes and past them, never takes bytes
// that read as NaN or a signed zero for the pattern, and keeps to the range it is given.
import t from 'tap';
import { BytePattern, viewOf } from '../../../../src/lib/bytes/bytes-at.js';

const text = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0} é';
const bytes = Buffer.from(`xx${text}yy`).subarray(2, 2 + Buffer.byteLength(text));

t.test('at() agrees with comparing the range, for every pattern length and place', async (t) => {
  const view = viewOf(bytes);
  let agree = true;
  let checked = 0;
  for (let length = 1; length <= 40; length++) {
    for (let from = 0; from + length <= bytes.length; from += 3) {
      const pattern = new BytePattern(bytes.toString('latin1', from, from + length));
      if (Buffer.from(bytes.toString('latin1', from, from + length), 'latin1').length !== pattern.length) continue; // not ASCII: its UTF-8 is longer
      for (let at = 0; at <= bytes.length; at++) {
        const expected = at + length <= bytes.length && bytes.subarray(at, at + length).equals(Buffer.from(bytes.toString('latin1', from, from + length), 'latin1'));
        agree &&= pattern.at(view, at, bytes.length) === expected;
        checked++;
      }
    }
  }
  t.ok(agree, `${checked} compares agree`);
  const head = new BytePattern('event: content_block_delta\ndata: {"type":"content_block_delta","index":');
  t.ok(head.at(view, 0, bytes.length), 'a 71-byte head: 17 words and a tail of 3');
  t.notOk(head.at(view, 1, bytes.length));
  t.ok(new BytePattern('é').at(view, bytes.length - 2, bytes.length), 'a pattern beyond ASCII is its UTF-8 bytes');
});

t.test('a wide pattern matches only its own bytes: each byte changed to every value is refused', async (t) => {
  const patternText = '{"type":"content_block_delta","index":'; // 38 bytes: four words and an overlapping fifth
  const pattern = new BytePattern(patternText);
  const exact = Buffer.from(patternText);
  let refused = 0;
  let wrong = 0;
  for (let at = 0; at < exact.length; at++) {
    for (let value = 0; value < 256; value++) {
      if (value === exact[at]) continue;
      const changed = Buffer.from(exact);
      changed[at] = value;
      if (pattern.at(viewOf(changed), 0, changed.length)) wrong++;
      else refused++;
    }
  }
  t.equal(wrong, 0, `${refused} changed copies refused`);
  t.ok(pattern.at(viewOf(exact), 0, exact.length));
  // Eight bytes that are -0, +0 or NaN as doubles, where a wide word is compared.
  for (const word of ['0000000000000080', '0000000000000000', '000000000000f87f', '010000000000f0ff']) {
    const bytes = Buffer.concat([Buffer.from(word, 'hex'), exact.subarray(8)]);
    t.notOk(pattern.at(viewOf(bytes), 0, bytes.length), `a first word of ${word} is not the pattern's`);
  }
});

t.test('startsAt and is keep to the range given', async (t) => {
  const view = viewOf(bytes);
  const event = new BytePattern('event: ');
  const name = new BytePattern('content_block_delta');
  t.ok(event.startsAt(view, 0, 26));
  t.notOk(event.startsAt(view, 0, 5), 'the range ends before the pattern does');
  t.ok(name.is(view, 7, 26));
  t.notOk(name.is(view, 7, 27), 'a longer range is not the word');
  t.notOk(name.is(view, 7, 25), 'nor a shorter one');
  t.notOk(event.at(view, bytes.length - 3, bytes.length), 'past the end of the bytes');
});

t.test('viewOf sees exactly the buffer, not the allocation it is cut from', async (t) => {
  const view = viewOf(bytes);
  t.equal(view.byteLength, bytes.length);
  t.equal(view.getUint8(0), 'e'.charCodeAt(0));
});
