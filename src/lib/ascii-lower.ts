// Letter case folded in ASCII only, on character codes or bytes: what header names and media types
// are compared by (RFC 9110: case-insensitive, and ASCII), without making a lower-cased copy first.

/** The code's lower-case letter when it is an ASCII capital (A-Z), else the code itself. */
export function lowerAscii(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code | 0x20 : code;
}

/**
 * Whether text[at, at + lower.length) spells `lower` (given in small letters) in any ASCII letter case;
 * the caller has checked that text is long enough. From the end: strings compared by this often share
 * their start (header names of one family, media types of one top-level type).
 */
export function spellsLowerAscii(text: string, at: number, lower: string): boolean {
  for (let j = lower.length - 1; j >= 0; j--) if (lowerAscii(text.charCodeAt(at + j)) !== lower.charCodeAt(j)) return false;
  return true;
}
