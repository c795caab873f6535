// The provider-neutral token count of one request, captured on the side of the response.

export interface TokenUsage {
  /** Uncached input tokens (the provider's `input_tokens`). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, the tokens written for 1 hour (`cache_creation.ephemeral_1h_input_tokens`), priced apart. */
  cacheWrite1h?: number;
  /** Server-side web searches the provider ran (`server_tool_use.web_search_requests`), priced per use. */
  webSearches?: number;
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
    cache_creation?: unknown;
    server_tool_use?: unknown;
  },
): void {
  if (isCount(u.input_tokens)) into.input = u.input_tokens;
  if (isCount(u.output_tokens)) into.output = u.output_tokens;
  if (isCount(u.cache_read_input_tokens)) into.cacheRead = u.cache_read_input_tokens;
  if (isCount(u.cache_creation_input_tokens)) into.cacheWrite = u.cache_creation_input_tokens;
  const oneHour = memberOf(u.cache_creation, 'ephemeral_1h_input_tokens');
  // Set only when some were written, as the common-shape reader does: most answers carry 0.
  if (isCount(oneHour) && oneHour > 0) into.cacheWrite1h = oneHour;
  const searches = memberOf(u.server_tool_use, 'web_search_requests');
  if (isCount(searches) && searches > 0) into.webSearches = searches;
}

function memberOf(value: unknown, name: string): number | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = (value as Record<string, unknown>)[name];
  return typeof v === 'number' ? v : null;
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

// The provider's `usage` object as it writes it in every answer today (test/fixtures; docs/wire.md, "Usage fields"):
// the three input counts, `cache_creation` with its two counts, `output_tokens`, then plain members
// (`service_tier`, `inference_geo`, …) that carry no count. One regular expression reads it: JSON.parse
// of this small object cost ~2 µs a request in the server's profile (~0.6 µs in a loop of its own),
// the expression ~0.2 µs. Any other shape, a member named like a count again, a count of more than 15
// digits included, does not match, and the caller parses the text.
/** A token count in the provider's JSON, captured: no leading zero, at most 15 digits (exact as a number). */
export const COUNT_PATTERN = '(0|[1-9][0-9]{0,14})';
const PLAIN_COUNT = '(?:0|[1-9][0-9]{0,14})';
const COUNTED_NAMES = '(?:input_tokens|output_tokens|cache_read_input_tokens|cache_creation_input_tokens|output_tokens_details)';
const COMMON_USAGE = new RegExp(
  `^\\{"input_tokens":${COUNT_PATTERN},"cache_creation_input_tokens":(?:${COUNT_PATTERN}|null),"cache_read_input_tokens":(?:${COUNT_PATTERN}|null),` +
    `"cache_creation":\\{"ephemeral_5m_input_tokens":${PLAIN_COUNT},"ephemeral_1h_input_tokens":${COUNT_PATTERN}\\},"output_tokens":${COUNT_PATTERN}` +
    `(?:,"(?!${COUNTED_NAMES}")[a-z_]{1,64}":(?:"[A-Za-z0-9_.-]{0,64}"|null|true|false|${PLAIN_COUNT}))*\\}$`,
);

/** usageOf(JSON.parse(text)) for the provider's common usage object; undefined for any other text. */
export function usageOfCommonText(text: string): TokenUsage | undefined {
  const m = COMMON_USAGE.exec(text);
  if (m === null) return undefined;
  const usage: TokenUsage = { input: Number(m[1]), output: Number(m[5]), cacheRead: m[3] === undefined ? 0 : Number(m[3]), cacheWrite: m[2] === undefined ? 0 : Number(m[2]) };
  if (m[4] !== '0') usage.cacheWrite1h = Number(m[4]);
  return usage;
}
