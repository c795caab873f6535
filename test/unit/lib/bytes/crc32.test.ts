// The JavaScript CRC-32 against node:zlib's (the reference the event-stream CRCs were checked with
// before): every length around the 16-byte steps, any start, continued from an earlier CRC; and the
// CRC of a known run of bytes taken in four lookups, from any CRC before it.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32, KnownBytesCrc } from '../../../../src/lib/bytes/crc32.js';

const bytes = randomBytes(300);

t.test('equals zlib for every length 0-80 at several starts, and continued from a CRC', async (t) => {
  let same = 0;
  let tried = 0;
  for (const start of [0, 1, 7, 16, 33]) {
    for (let length = 0; length <= 80; length++) {
      const end = start + length;
      for (const before of [0, 0xffffffff, 0x12345678, zlibCrc32(bytes.subarray(0, start))]) {
        tried++;
        if (crc32(bytes, start, end, before) === zlibCrc32(bytes.subarray(start, end), before)) same++;
      }
    }
  }
  t.equal(same, tried, `${tried} ranges`);
  t.equal(crc32(Buffer.from('123456789'), 0, 9), 0xcbf43926, 'the CRC-32 check value');
});

t.test('a CRC taken in pieces is the CRC of the whole', async (t) => {
  const whole = crc32(bytes, 0, bytes.length);
  let same = 0;
  for (let cut = 0; cut <= bytes.length; cut++) if (crc32(bytes, cut, bytes.length, crc32(bytes, 0, cut)) === whole) same++;
  t.equal(same, bytes.length + 1);
});

t.test('KnownBytesCrc.after(crc) is crc32 of its bytes continued from crc, for runs of any length', async (t) => {
  let same = 0;
  let tried = 0;
  for (const length of [0, 1, 3, 4, 5, 16, 75, 200]) {
    const run = randomBytes(length);
    const known = new KnownBytesCrc(run);
    for (const before of [0, 1, 0xffffffff, 0x80000000, 0xdeadbeef, ...Array.from({ length: 20 }, () => randomBytes(4).readUInt32BE(0))]) {
      tried++;
      // The CRC of nothing is the CRC before it (zlib answers 0 for randomBytes(0), which has no memory behind it).
      if (known.after(before) === (length === 0 ? before : zlibCrc32(run, before))) same++;
    }
  }
  t.equal(same, tried, `${tried} runs and starting CRCs`);
});
