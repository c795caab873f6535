// Whether a byte range holds given bytes, for the stream readers' per-event checks on the chunks as
// they came (no decoding to text first). A pattern is compared several bytes at a time through a
// DataView on the chunk: for the few dozen bytes of an event's head that measured twice as fast as a
// loop over the bytes, and faster than Buffer#compare, whose call (argument checks, the native
// boundary) outweighs the compare at that size, or than cutting the head out as a string.
//
// Eight bytes at a time where that is exact: a pattern of at least eight ASCII bytes (none of them 0)
// is compared as little-endian doubles, its last word overlapping the one before it when its length
// is no multiple of eight. Such a word is always a normal double (its exponent bits come from an ASCII
// byte between 0x01 and 0x7F and the top four bits of another ASCII byte: never all zeros, never all
// ones), so it is neither NaN nor ±0, and `===` on it holds exactly when all eight bytes are equal.
// That took the 72-byte head of a delta from 22 to 15 ns (issue 35). Any other pattern goes four
// bytes at a time, then byte by byte.

/** A constant string's UTF-8 bytes, compared in place. */
export class BytePattern {
  readonly length: number;
  /** Eight-byte words (the last one ending at the pattern's end), or null: the pattern is not wide. */
  private readonly wide: Float64Array | null;
  /** The bytes as little-endian 32-bit words, then the last length % 4 bytes one by one. */
  private readonly words: Int32Array;
  private readonly tail: Uint8Array;

  constructor(text: string) {
    const bytes = Buffer.from(text, 'utf8');
    this.length = bytes.length;
    this.wide = isWide(bytes) ? wideWords(bytes) : null;
    const whole = bytes.length >> 2;
    this.words = new Int32Array(whole);
    for (let i = 0; i < whole; i++) this.words[i] = bytes.readInt32LE(i * 4);
    this.tail = new Uint8Array(bytes.subarray(whole * 4));
  }

  /** view[at, at + length) is this pattern; `end`: where the view's bytes end (passed in: DataView#byteLength is a builtin call). */
  at(view: DataView, at: number, end: number): boolean {
    if (at + this.length > end) return false;
    const wide = this.wide;
    if (wide !== null) {
      const last = wide.length - 1;
      for (let i = 0; i < last; i++) if (view.getFloat64(at + i * 8, true) !== wide[i]) return false;
      return view.getFloat64(at + this.length - 8, true) === wide[last];
    }
    const words = this.words;
    const n = words.length;
    for (let i = 0; i < n; i++) if (view.getInt32(at + i * 4, true) !== words[i]) return false;
    const tail = this.tail;
    const tailAt = at + n * 4;
    for (let i = 0; i < tail.length; i++) if (view.getUint8(tailAt + i) !== tail[i]) return false;
    return true;
  }

  /** view[at, end) starts with this pattern. */
  startsAt(view: DataView, at: number, end: number): boolean {
    return end - at >= this.length && this.at(view, at, end);
  }

  /** view[at, end) is this pattern. */
  is(view: DataView, at: number, end: number): boolean {
    return end - at === this.length && this.at(view, at, end);
  }
}

/** At least eight bytes, each ASCII and not 0: every eight of them make a normal double (see above). */
function isWide(bytes: Buffer): boolean {
  if (bytes.length < 8) return false;
  for (const b of bytes) if (b === 0 || b >= 0x80) return false;
  return true;
}

/** The whole eight-byte words, then (when the length is no multiple of eight) the last eight bytes. */
function wideWords(bytes: Buffer): Float64Array {
  const whole = bytes.length >> 3;
  const overlap = bytes.length % 8 !== 0;
  const words = new Float64Array(whole + (overlap ? 1 : 0));
  for (let i = 0; i < whole; i++) words[i] = bytes.readDoubleLE(i * 8);
  if (overlap) words[whole] = bytes.readDoubleLE(bytes.length - 8);
  return words;
}

/** A view on exactly the buffer's bytes (a Buffer is often a slice of a larger allocation). */
export function viewOf(bytes: Buffer): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
