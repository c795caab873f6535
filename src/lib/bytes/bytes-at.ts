// Whether a byte range holds given bytes, for the stream readers' per-event checks on the chunks as
// they came (no decoding to text first). A pattern is compared four bytes at a time through a
// DataView on the chunk: for the few dozen bytes of an event's head that measured twice as fast as a
// loop over the bytes, and faster than Buffer#compare, whose call (argument checks, the native
// boundary) outweighs the compare at that size, or than cutting the head out as a string.

/** A constant string's UTF-8 bytes, compared in place. */
export class BytePattern {
  readonly length: number;
  /** The bytes as little-endian 32-bit words, then the last length % 4 bytes one by one. */
  private readonly words: Int32Array;
  private readonly tail: Uint8Array;

  constructor(text: string) {
    const bytes = Buffer.from(text, 'utf8');
    this.length = bytes.length;
    const whole = bytes.length >> 2;
    this.words = new Int32Array(whole);
    for (let i = 0; i < whole; i++) this.words[i] = bytes.readInt32LE(i * 4);
    this.tail = new Uint8Array(bytes.subarray(whole * 4));
  }

  /** view[at, at + length) is this pattern; `end`: where the view's bytes end (passed in: DataView#byteLength is a builtin call). */
  at(view: DataView, at: number, end: number): boolean {
    if (at + this.length > end) return false;
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

/** A view on exactly the buffer's bytes (a Buffer is often a slice of a larger allocation). */
export function viewOf(bytes: Buffer): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
