// Letter case folded in ASCII only, on character codes or bytes: what header names and media types
// are compared by (RFC 9110: case-insensitive, and ASCII), without making a lower-cased copy first.

/** The code's lower-case letter when it is an ASCII capital (A-Z), else the code itself. */
export function lowerAscii(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code | 0x20 : code;
}
