// An answer's headers as undici hands them over: a raw list (name, value, name, value, …) of the
// bytes as they came. Looking a name up there is a pass over the list; the names an answer is read
// for on every request (the rate-limit counts for the route's headroom, the headers passed back to
// a messages client) are looked up together instead, in one pass (issue 35: the router's four
// look-ups of the headroom alone cost ~1 µs per answer).
//
// The list is copied when the answer arrives (RawHeaders.copyOf): undici's entries are views on the
// socket's read buffer, and an answer that kept them for its lifetime made V8 promote them (and the
// read buffers behind them) to the old generation: ~4 KB a streamed request, a full collection every
// third of a second under load, a quarter of a stream's CPU in V8's helper threads (bench/README.md,
// issue 35). The copy is one latin-1 string (a character a byte, so the bytes come back exactly) and
// the entries' bounds in a plain array: both on V8's heap. A Buffer and an Int32Array for them cost
// 3.6 µs an answer, most of it in making the two (an Int32Array of more than 64 bytes and the
// Buffer pool's slabs are memory beside the heap, which V8 counts towards starting a collection
// early); the string and the array cost 0.9 µs, most of it in reading each entry's place.
import { lowerAscii, spellsLowerAscii } from '../ascii-lower.js';

/** One header's value, its values when it came more than once, or undefined. */
export type HeaderValue = string | string[] | undefined;

/** Buffer#latin1Slice, called on a plain view of the read buffer's stretch (no Buffer made for it). */
const latin1Slice = Buffer.prototype.latin1Slice as (this: Uint8Array) => string;

// A typed array's place, read by calling the getters themselves: read as properties of undici's
// entries, each went through V8's generic property load (~190 instructions, callgrind) where the
// called getter is compiled in place (10 -> 4 ns for byteOffset, 17 -> 10 ns for buffer).
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const byteOffsetOf = getterOf<number>(typedArrayPrototype, 'byteOffset');
const bufferOf = getterOf<ArrayBufferLike>(typedArrayPrototype, 'buffer');

function getterOf<T>(prototype: object, name: string): (this: Uint8Array) => T {
  return Object.getOwnPropertyDescriptor(prototype, name)!.get as (this: Uint8Array) => T;
}

/** An answer's raw header list, copied out of the bytes it was read from: names and values in order. */
export class RawHeaders {
  private constructor(
    /** The entries' bytes, a character a byte. */
    private readonly bytes: string,
    /** Per entry (name, value, name, …), its start and end in `bytes`. */
    private readonly bounds: number[],
  ) {}

  /**
   * A copy of undici's raw list. Its entries usually lie in order in one read buffer: the stretch from
   * the first to the last is copied in one go (the line ends between them come along); otherwise (a
   * header split across two reads) entry by entry.
   */
  static copyOf(list: readonly Buffer[]): RawHeaders {
    const n = list.length;
    if (n === 0) return new RawHeaders('', []);
    const bounds = new Array<number>(n * 2);
    const first = list[0]!;
    const source = bufferOf.call(first);
    const base = byteOffsetOf.call(first);
    let end = base;
    for (let i = 0; i < n; i++) {
      const entry = list[i]!;
      const at = byteOffsetOf.call(entry);
      if (at < end || bufferOf.call(entry) !== source) return RawHeaders.copyApart(list);
      bounds[2 * i] = at - base;
      end = at + entry.length;
      bounds[2 * i + 1] = end - base;
    }
    return new RawHeaders(latin1Slice.call(new Uint8Array(source, base, end - base)), bounds);
  }

  /** Entry by entry: entries that do not lie in order in one buffer. */
  private static copyApart(list: readonly Buffer[]): RawHeaders {
    const bounds = new Array<number>(list.length * 2);
    let bytes = '';
    for (let i = 0; i < list.length; i++) {
      bounds[2 * i] = bytes.length;
      bytes += list[i]!.toString('latin1');
      bounds[2 * i + 1] = bytes.length;
    }
    return new RawHeaders(bytes, bounds);
  }

  /** Names and values: twice the headers. */
  get entries(): number {
    return this.bounds.length >> 1;
  }

  /** The list in undici's shape (for util.parseHeaders, when every header is asked for). */
  list(): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 0; i < this.bounds.length; i += 2) out.push(Buffer.from(this.bytes.slice(this.bounds[i], this.bounds[i + 1]), 'latin1'));
    return out;
  }

  /** Entry i's length in bytes. */
  lengthOf(i: number): number {
    return this.bounds[2 * i + 1]! - this.bounds[2 * i]!;
  }

  /**
   * Whether entry i, of lowerName's length, spells lowerName in any letter case. The last letters first:
   * names of one length share their start far more often than their end (the provider's twelve
   * `anthropic-ratelimit-<kind>-<remaining|reset|limit>` differ only after 20 equal bytes). Then the
   * whole name as written: providers write names in lower case, and a cut compared with `===` took a
   * third of the time of a loop over the characters (and of String#startsWith; issue 35). Only a name
   * in other letter cases is read character by character.
   */
  isName(i: number, lowerName: string): boolean {
    const bytes = this.bytes;
    const start = this.bounds[2 * i]!;
    const last = this.bounds[2 * i + 1]! - 1;
    if (lowerAscii(bytes.charCodeAt(last)) !== lowerName.charCodeAt(last - start)) return false;
    return bytes.slice(start, last + 1) === lowerName || spellsLowerAscii(bytes, start, lowerName);
  }

  /** Entry i as text (header bytes are latin-1). */
  text(i: number): string {
    return this.bytes.slice(this.bounds[2 * i], this.bounds[2 * i + 1]);
  }
}

/** One header in the raw list: its value, its values, or undefined. */
export function rawHeader(raw: RawHeaders, lowerName: string): HeaderValue {
  return namesOf(lowerName).valuesIn(raw)[0];
}

/**
 * A name looked up alone, as HeaderNames of one, kept: the gateway asks for names written in its code
 * (content-type, retry-after, a provider's request id). Past this many, no more are kept.
 */
const ALONE_KEPT = 256;
const alone = new Map<string, HeaderNames>();

function namesOf(lowerName: string): HeaderNames {
  let names = alone.get(lowerName);
  if (names === undefined) {
    names = new HeaderNames([lowerName]);
    if (alone.size < ALONE_KEPT) alone.set(lowerName, names);
  }
  return names;
}

/** Lower-case header names read together; made once, used for every answer. */
export class HeaderNames {
  /** The names' indexes by their length: most raw names are ruled out by their length alone. */
  private readonly byLength: Array<number[] | undefined> = [];

  constructor(readonly names: readonly string[]) {
    names.forEach((name, i) => (this.byLength[name.length] ??= []).push(i));
  }

  /** Each name's value in the raw list (in the order of `names`), in one pass over it. */
  valuesIn(raw: RawHeaders): HeaderValue[] {
    const values: HeaderValue[] = new Array<HeaderValue>(this.names.length).fill(undefined);
    const entries = raw.entries;
    for (let i = 0; i < entries; i += 2) {
      const candidates = this.byLength[raw.lengthOf(i)];
      if (candidates === undefined) continue;
      for (let c = 0; c < candidates.length; c++) {
        const k = candidates[c]!;
        if (!raw.isName(i, this.names[k]!)) continue;
        values[k] = withValue(values[k], raw.text(i + 1));
        break;
      }
    }
    return values;
  }
}

function withValue(found: HeaderValue, value: string): HeaderValue {
  return found === undefined ? value : typeof found === 'string' ? [found, value] : [...found, value];
}
