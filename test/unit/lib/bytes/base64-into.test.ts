// Quoted base64 decoded straight into a buffer: the same bytes as Buffer.from(text, 'base64') for
// every length and padding, and -1 (the caller then takes Buffer's lenient way) for anything but
// strict standard base64 followed by a quote before the limit.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { decodeQuotedBase64Into } from '../../../../src/lib/bytes/base64-into.js';

/** `prefix` + the text + `suffix` as bytes, and where the text starts. */
function source(text: string, prefix = 'ab', suffix = '",x'): { bytes: Buffer; from: number } {
  return { bytes: Buffer.from(prefix + text + suffix, 'latin1'), from: prefix.length };
}

function decode(text: string, suffix = '",x', at = 3): { written: number; out: Buffer } {
  const { bytes, from } = source(text, 'ab', suffix);
  const out = Buffer.alloc(at + text.length);
  const written = decodeQuotedBase64Into(bytes, from, bytes.length, out, at);
  return { written, out: out.subarray(at, at + Math.max(written, 0)) };
}

t.test('every length 0-64, every byte value: the bytes Buffer decodes, written at the offset asked', async (t) => {
  let same = 0;
  for (let length = 0; length <= 64; length++) {
    const data = randomBytes(length);
    const { written, out } = decode(data.toString('base64'));
    if (written === length && out.equals(data)) same++;
  }
  t.equal(same, 65);
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  t.same(decode(all.toString('base64')).out, all, 'all 256 byte values, all 64 digits');
});

t.test('not strict base64 ending in a quote: -1', async (t) => {
  t.equal(decode('aGVsbG8').written, -1, 'padding missing');
  t.equal(decode('aGVsbG8=', '').written, -1, 'no closing quote');
  t.equal(decode('aGVs\nbG8=').written, -1, 'a line break');
  t.equal(decode('aGVs\\/bG8=').written, -1, 'an escaped slash');
  t.equal(decode('-_-_').written, -1, 'the URL-safe alphabet');
  t.equal(decode('aGVsbG8=x').written, -1, 'something between the padding and the quote');
  t.equal(decode('aG==bG8=').written, -1, 'padding inside');
  t.equal(decode('a===').written, -1, 'three padding characters');
  t.equal(decode('a"').written, -1, 'a group cut by the quote');
  const { bytes, from } = source('aGVsbG8=');
  t.equal(decodeQuotedBase64Into(bytes, from, bytes.length - 3, Buffer.alloc(16), 0), -1, 'the quote after the limit');
  t.equal(decodeQuotedBase64Into(bytes, from, bytes.length - 2, Buffer.alloc(16), 0), 5, 'the quote just before the limit');
});
