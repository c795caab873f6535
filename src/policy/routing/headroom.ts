// What a provider's answer says about the headroom left on the account a route uses: the Messages
// API's `anthropic-ratelimit-*` headers (requests, tokens, input tokens, output tokens, each with a
// `-remaining` count and an RFC 3339 `-reset` time), and `retry-after` on a 429. A route whose
// remaining count of any kind is 0 has no headroom until that kind's reset; the router leaves it
// alone until then instead of waiting for the 429.
import { HeaderNames, type HeaderValue } from '../../lib/http/raw-headers.js';

/** An answer's headers: one by its lower-case name, or several in one pass. */
export interface HeaderLookup {
  header(lowerName: string): HeaderValue;
  headersOf(names: HeaderNames): HeaderValue[];
}

/** The kinds the provider reports, each as `anthropic-ratelimit-<kind>-remaining` and `-reset`. */
export const HEADROOM_KINDS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;
export type HeadroomKind = (typeof HEADROOM_KINDS)[number];

export interface HeadroomReading {
  /** Remaining count per kind the answer reported. */
  readonly remaining: Partial<Record<HeadroomKind, number>>;
  /**
   * Epoch milliseconds until which the route has no headroom (the latest reset of a kind at 0),
   * or null when every reported kind has some left.
   */
  readonly exhaustedUntil: number | null;
}

/** Read from every answer, in one pass over its headers; a reset only for a kind at 0. */
const REMAINING = new HeaderNames(HEADROOM_KINDS.map((k) => `anthropic-ratelimit-${k}-remaining`));
const RESET = HEADROOM_KINDS.map((k) => `anthropic-ratelimit-${k}-reset`);

/** Reads the rate-limit headers of an answer; null when it carries none (not every provider sends them). */
export function readHeadroom(head: HeaderLookup, wallNow: number): HeadroomReading | null {
  let remaining: Partial<Record<HeadroomKind, number>> | null = null;
  let exhaustedUntil: number | null = null;
  const counts = head.headersOf(REMAINING);
  for (let i = 0; i < HEADROOM_KINDS.length; i++) {
    const left = numberOf(counts[i]);
    if (left === null) continue;
    (remaining ??= {})[HEADROOM_KINDS[i]!] = left;
    if (left > 0) continue;
    // No reset given: a second, the provider's finest grain, so the next answer says more.
    const reset = timeOf(head.header(RESET[i]!)) ?? wallNow + 1000;
    if (reset > wallNow) exhaustedUntil = Math.max(exhaustedUntil ?? 0, reset);
  }
  return remaining === null ? null : { remaining, exhaustedUntil };
}

function first(v: HeaderValue): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function numberOf(v: HeaderValue): number | null {
  const text = first(v);
  if (text === undefined || text === '') return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

function timeOf(v: HeaderValue): number | null {
  const text = first(v);
  if (text === undefined) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}
