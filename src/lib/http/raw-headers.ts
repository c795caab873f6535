// An answer's headers as undici hands them over: a raw list (name, value, name, value, …) of the
// bytes as they came. Looking a name up there is a pass over the list; the names an answer is read
// for on every request (the rate-limit counts for the route's headroom, the headers passed back to
// a messages client) are looked up together instead, in one pass (issue 35: the router's four
// look-ups of the headroom alone cost ~1 µs per answer).

/** One header's value, its values when it came more than once, or undefined. */
export type HeaderValue = string | string[] | undefined;

/** One header in the raw list: its value, its values, or undefined. */
export function rawHeader(raw: readonly Buffer[], lowerName: string): HeaderValue {
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
  /** The names' bytes: compared with the raw names' bytes (a string's characters read slower). */
  private readonly bytes: Uint8Array[];

  constructor(readonly names: readonly string[]) {
    names.forEach((name, i) => (this.byLength[name.length] ??= []).push(i));
    this.bytes = names.map((name) => Buffer.from(name, 'latin1'));
  }

  /** Each name's value in the raw list (in the order of `names`), in one pass over it. */
  valuesIn(raw: readonly Buffer[]): HeaderValue[] {
    const values: HeaderValue[] = new Array<HeaderValue>(this.names.length).fill(undefined);
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      const candidates = this.byLength[name.length];
      if (candidates === undefined) continue;
      for (let c = 0; c < candidates.length; c++) {
        const k = candidates[c]!;
        if (!isName(name, this.bytes[k]!)) continue;
        values[k] = withValue(values[k], raw[i + 1]!);
        break;
      }
    }
    return values;
  }
}

/**
 * Whether a header name's bytes, of the same length, spell `lowerName` in any letter case: byte by byte
 * from the end. undici's own lookup of a name's lower-case form cost more than the rest of the answer's
 * head. From the end because names of one length share their start far more often than their end: the
 * provider's twelve `anthropic-ratelimit-<kind>-<remaining|reset|limit>` differ only after 20 equal bytes.
 */
function isName(name: Buffer, lowerName: Uint8Array): boolean {
  for (let j = name.length - 1; j >= 0; j--) {
    const byte = name[j]!;
    if ((byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte) !== lowerName[j]) return false;
  }
  return true;
}

function withValue(found: HeaderValue, bytes: Buffer): HeaderValue {
  const value = bytes.toString('latin1');
  return found === undefined ? value : typeof found === 'string' ? [found, value] : [...found, value];
}
