// How long a throttled route is left alone. The provider's own word wins: `retry-after` (or
// `retry-after-ms`) on its 429, or the reset time of the rate limit it ran out of. A throttle that
// says neither (Bedrock's ThrottlingException often does not) cools the route for 5 s, doubling on
// each repeat up to 60 s; an answer the route serves normally resets the doubling.

export const FIRST_COOL_DOWN_MS = 5_000;
export const LONGEST_COOL_DOWN_MS = 60_000;

/**
 * The cool-down of a throttle without a hint: `strikes` throttles in a row before this one (0 for
 * the first) give 5 s, 10 s, 20 s, 40 s, then 60 s.
 */
export function unhintedCoolDownMs(strikes: number): number {
  return Math.min(LONGEST_COOL_DOWN_MS, FIRST_COOL_DOWN_MS * 2 ** Math.min(strikes, 16));
}
