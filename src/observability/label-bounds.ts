// Keeps every label value from a bounded set, so no client can grow the number of series:
// a value outside the set (or past a cap, for sets only known at run time) becomes `other`.

export const OTHER = 'other';

/** HTTP status → `2xx`…`5xx`; anything outside 100–599 (e.g. no response at all) → `other`. */
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
export function statusClass(status: number): string {
  const i = Math.floor(status / 100) - 1;
  return i >= 0 && i < STATUS_CLASSES.length ? STATUS_CLASSES[i] : OTHER;
}

/** A value from a fixed list, else `other`. */
export function fixedLabel(allowed: readonly string[]): (value: string) => string {
  const set = new Set(allowed);
  return (value) => (set.has(value) ? value : OTHER);
}

// Label values the gateway's own code names (warning kinds, retry reasons, upstream names) are
// short identifiers; anything else was probably built from request data and must not be a label.
const IDENTIFIER = /^[A-Za-z0-9_.:-]{1,64}$/;
/** Route names: a catalogue model and a provider id from the operator's models file (`claude-sonnet-4-6@bedrock-us`). */
export const ROUTE_NAME = /^[A-Za-z0-9_.:@-]{1,160}$/;

/**
 * A value set learnt at run time, first come first served, capped at `max` distinct values;
 * the cap is a safety net against a caller passing request data by mistake.
 */
export function cappedLabel(max: number, shape: RegExp = IDENTIFIER): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max || !shape.test(value)) return OTHER;
    seen.add(value);
    return value;
  };
}

/**
 * A value set owned by another component (the catalogue, the customer list), read on each call
 * because it changes at run time; `passThrough` values (e.g. `none`) are always kept. Without a
 * source, any short text is kept up to a cap: customer names are chosen by operators, so only
 * their length and number are bounded.
 */
export function runtimeSetLabel(
  source: (() => ReadonlySet<string>) | undefined,
  passThrough: readonly string[],
  capWithoutSource: number,
): (value: string) => string {
  const always = new Set(passThrough);
  if (source !== undefined) return (value) => (always.has(value) || source().has(value) ? value : OTHER);
  const seen = new Set<string>();
  return (value) => {
    if (always.has(value) || seen.has(value)) return value;
    if (seen.size >= capWithoutSource || value.length === 0 || value.length > 128) return OTHER;
    seen.add(value);
    return value;
  };
}
