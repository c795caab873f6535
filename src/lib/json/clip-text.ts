// Client-chosen text (a model name, an address from a header) can be megabytes long. Before such a
// string is logged, kept in a cache or echoed, it is cut to a short prefix with a marker, so one
// request can neither write a multi-megabyte log line nor leave that much behind in memory.

/** The longest client string kept whole, in UTF-16 units: at most 600 bytes of UTF-8. */
export const CLIP_CHARS = 200;
export const CLIP_MARKER = '…[clipped]';

export function clipText(s: string, maxChars: number = CLIP_CHARS): string {
  if (s.length <= maxChars) return s;
  let end = maxChars;
  // Never cut a surrogate pair in two: the half left behind would be written as an escape.
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return unshared(s.slice(0, end)) + CLIP_MARKER;
}

/**
 * A copy that shares no memory with its source: V8 may represent a slice (also a piece of `split` or
 * `trim`) as a view onto the string it came from, and a kept view keeps the whole original alive. For
 * a string about to become a long-lived key. UTF-16 round trips every JavaScript string exactly.
 */
export function unshared(s: string): string {
  return Buffer.from(s, 'utf16le').toString('utf16le');
}
