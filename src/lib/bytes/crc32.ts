// CRC-32 (the zlib and event-stream polynomial, reflected 0xEDB88320) of a range of a buffer, in
// JavaScript, 16 bytes per step by table ("slicing by 16"). For the few hundred bytes of a stream
// message it costs less than node:zlib's crc32, whose call alone (argument checks, the native
// boundary, the subarray it needs for a range) outweighs the arithmetic at that size.

/** Sixteen 256-entry tables: table t gives the CRC of a byte followed by t zero bytes. */
const TABLES = new Int32Array(16 * 256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLES[n] = c;
}
for (let t = 1; t < 16; t++) {
  for (let n = 0; n < 256; n++) {
    const previous = TABLES[(t - 1) * 256 + n]!;
    TABLES[t * 256 + n] = (previous >>> 8) ^ TABLES[previous & 0xff]!;
  }
}

/** The CRC-32 of `bytes[start, end)`, continuing from `crc` (the CRC of what came before, 0 for none). */
export function crc32(bytes: Uint8Array, start: number, end: number, crc = 0): number {
  const T = TABLES;
  let c = ~crc;
  let i = start;
  for (; i + 16 <= end; i += 16) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c =
      T[3840 + (c & 0xff)]! ^
      T[3584 + ((c >>> 8) & 0xff)]! ^
      T[3328 + ((c >>> 16) & 0xff)]! ^
      T[3072 + (c >>> 24)]! ^
      T[2816 + bytes[i + 4]!]! ^
      T[2560 + bytes[i + 5]!]! ^
      T[2304 + bytes[i + 6]!]! ^
      T[2048 + bytes[i + 7]!]! ^
      T[1792 + bytes[i + 8]!]! ^
      T[1536 + bytes[i + 9]!]! ^
      T[1280 + bytes[i + 10]!]! ^
      T[1024 + bytes[i + 11]!]! ^
      T[768 + bytes[i + 12]!]! ^
      T[512 + bytes[i + 13]!]! ^
      T[256 + bytes[i + 14]!]! ^
      T[bytes[i + 15]!]!;
  }
  for (; i < end; i++) c = T[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** The CRC register after `count` zero bytes, from `register` (the table step without inversion). */
function afterZeros(register: number, count: number): number {
  let r = register;
  for (let i = 0; i < count; i++) r = TABLES[r & 0xff]! ^ (r >>> 8);
  return r;
}

/**
 * The CRC-32 over a run of bytes known in advance (a header block every message repeats), from any
 * CRC before it, in four table lookups instead of one step per byte. The CRC is linear: the register
 * after the run is the register before it moved through `length` zero bytes, which is linear in its
 * four bytes (one table each), XOR the register the run gives from zero.
 */
export class KnownBytesCrc {
  private readonly tables = new Int32Array(4 * 256);
  /** The register after the run, started from zero. */
  private readonly ofBytes: number;

  constructor(bytes: Uint8Array) {
    for (let k = 0; k < 4; k++) for (let v = 0; v < 256; v++) this.tables[k * 256 + v] = afterZeros(v << (8 * k), bytes.length);
    this.ofBytes = ~crc32(bytes, 0, bytes.length, ~0 >>> 0);
  }

  /** crc32(bytes, 0, bytes.length, crc) of the run given at construction. */
  after(crc: number): number {
    const r = ~crc;
    const T = this.tables;
    return ~(T[r & 0xff]! ^ T[256 + ((r >>> 8) & 0xff)]! ^ T[512 + ((r >>> 16) & 0xff)]! ^ T[768 + (r >>> 24)]! ^ this.ofBytes) >>> 0;
  }
}
