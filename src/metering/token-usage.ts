// The provider-neutral token count of one request, captured on the side of the response.

export interface TokenUsage {
  /** Uncached input tokens (the provider's `input_tokens`). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export function emptyUsage(): TokenUsage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

/** Total input as the chat surface counts it: uncached + cache read + cache write. */
export function totalInput(u: TokenUsage): number {
  return u.input + u.cacheRead + u.cacheWrite;
}

/**
 * Merges a provider usage object into `into`. Counts in message_delta are cumulative, so a
 * present field replaces the previous value instead of adding to it. Only finite numbers count:
 * JSON.parse turns 1e999 into Infinity, which no meter, log line or database column can hold.
 */
export function mergeProviderUsage(
  into: TokenUsage,
  u: {
    input_tokens?: number | null;
    output_tokens?: number | null;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  },
): void {
  if (isCount(u.input_tokens)) into.input = u.input_tokens;
  if (isCount(u.output_tokens)) into.output = u.output_tokens;
  if (isCount(u.cache_read_input_tokens)) into.cacheRead = u.cache_read_input_tokens;
  if (isCount(u.cache_creation_input_tokens)) into.cacheWrite = u.cache_creation_input_tokens;
}

function isCount(n: number | null | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/** A non-streamed answer's `usage` value as counted tokens; null when it is not an object (none reported). */
export function usageOf(providerUsage: unknown): TokenUsage | null {
  if (typeof providerUsage !== 'object' || providerUsage === null || Array.isArray(providerUsage)) return null;
  const usage = emptyUsage();
  mergeProviderUsage(usage, providerUsage);
  return usage;
}
