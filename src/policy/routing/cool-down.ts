// How long a throttled route is left alone. The provider's own word wins: `retry-after` (or
// `retry-after-ms`) on its 429, or the reset time of the rate limit it ran out of. A throttle that
// says neither (Bedrock's ThrottlingException often does not) cools the route for 5 s, doubling on
// each repeat up to 60 s; an answer the route serves normally resets the doubling.
//
// A stream that had begun and then broke off with the provider's `error` event (a Bedrock
// throttlingException, the provider's rate_limit_error or overloaded_error) cannot fail over: the
// client has its first bytes. It cools the route like an unhinted throttle instead, so the next
// requests go elsewhere rather than into the same wall (neither event carries a retry hint).

export const FIRST_COOL_DOWN_MS = 5_000;
export const LONGEST_COOL_DOWN_MS = 60_000;

/**
 * The cool-down of a throttle without a hint: `strikes` throttles in a row before this one (0 for
 * the first) give 5 s, 10 s, 20 s, 40 s, then 60 s.
 */
export function unhintedCoolDownMs(strikes: number): number {
  return Math.min(LONGEST_COOL_DOWN_MS, FIRST_COOL_DOWN_MS * 2 ** Math.min(strikes, 16));
}

/** The provider's error types that, breaking a stream off, cool the route that sent it. */
const COOLING_STREAM_ERRORS: ReadonlySet<string> = new Set(['rate_limit_error', 'overloaded_error']);

export function coolsAfterStreamError(errorType: string): boolean {
  return COOLING_STREAM_ERRORS.has(errorType);
}
