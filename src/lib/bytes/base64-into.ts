// Base64 text held in a buffer, decoded straight into another buffer. Node decodes base64 only from a
// string, so bytes would first become a string and the result a buffer of its own, to be copied
// again: for the short base64 members of a stream (a hundred characters, one per event) making the
// string and the call cost more than the decoding. Strict on purpose: only the standard alphabet
// with its `=` padding, in whole groups of four, up to a closing quote; anything else (line breaks,
// the URL-safe alphabet, missing padding) is refused with -1 and left to Buffer.from(text, 'base64').

/** The 6-bit value of each base64 character; -1 for every other byte, `=` and `"` included. */
const DIGITS = new Int32Array(256).fill(-1);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
for (let i = 0; i < ALPHABET.length; i++) DIGITS[ALPHABET.charCodeAt(i)] = i;

const QUOTE = 0x22;
const PAD = 0x3d;

/**
 * Decodes the base64 text from `source[from]` up to the first `"` (which must come before `limit`)
 * into `target` at `at`, and returns how many bytes it wrote; -1 when the text is not strict base64
 * ending in a quote (what was written then is of no meaning). The caller makes sure `target` has
 * room for three bytes per four characters from `from` to `limit`.
 */
export function decodeQuotedBase64Into(source: Uint8Array, from: number, limit: number, target: Uint8Array, at: number): number {
  const D = DIGITS;
  let i = from;
  let out = at;
  for (; i + 4 <= limit; i += 4) {
    // A byte outside the alphabet makes its digit -1 and so the whole group negative.
    const group = (D[source[i]!]! << 18) | (D[source[i + 1]!]! << 12) | (D[source[i + 2]!]! << 6) | D[source[i + 3]!]!;
    if (group < 0) break;
    target[out++] = group >>> 16;
    target[out++] = (group >>> 8) & 0xff;
    target[out++] = group & 0xff;
  }
  if (i < limit && source[i] === QUOTE) return out - at;
  // The last group, padded: `xx==` (one byte) or `xxx=` (two), then the quote.
  if (i + 5 > limit || source[i + 3] !== PAD || source[i + 4] !== QUOTE) return -1;
  const high = (D[source[i]!]! << 18) | (D[source[i + 1]!]! << 12);
  if (high < 0) return -1;
  if (source[i + 2] === PAD) {
    target[out++] = high >>> 16;
    return out - at;
  }
  const group = high | (D[source[i + 2]!]! << 6);
  if (group < 0) return -1;
  target[out++] = group >>> 16;
  target[out++] = (group >>> 8) & 0xff;
  return out - at;
}
