// An account's rate limits as the provider applies them: requests, input tokens and output tokens
// per minute, each a token bucket that refills continuously up to its limit (not a window that
// resets each minute). A request needs what it costs in every bucket it is metered on (a request
// costing more than a whole bucket waits for a full one); input tokens are the uncached input and
// the cache writes (cache reads do not count), output tokens are reserved at max_tokens when the
// request is admitted and the unused part is given back when it ends.
//
// A dimension without a limit is not metered: its headers carry the fixed values the simulator has
// always sent (4,000 requests, 1,600,000 input and 400,000 output tokens a minute, nearly all left),
// so a gateway reading them sees plenty of headroom.

/** Per-minute limits; a limit left out is not metered. */
export interface RateLimitOptions {
  requestsPerMinute?: number;
  inputTokensPerMinute?: number;
  outputTokensPerMinute?: number;
}

export type Dimension = 'requests' | 'input_tokens' | 'output_tokens';
const DIMENSIONS: readonly Dimension[] = ['requests', 'input_tokens', 'output_tokens'];

export interface LimitRefusal {
  dimension: Dimension;
  /** The limit per minute that was hit. */
  limit: number;
  /** Whole seconds until the bucket holds what the request needs (at least 1). */
  retryAfterSeconds: number;
}

export interface RequestCost {
  /** Uncached input plus cache writes. */
  input: number;
  /** max_tokens: reserved now, settled at the end. */
  output: number;
}

const MINUTE_MS = 60_000;

class Bucket {
  private level: number;
  private at = 0;

  constructor(readonly capacity: number) {
    this.level = capacity;
  }

  private refill(now: number): void {
    if (now > this.at) this.level = Math.min(this.capacity, this.level + ((now - this.at) * this.capacity) / MINUTE_MS);
    this.at = Math.max(this.at, now);
  }

  /** How long until the bucket holds `needed` (of at most its capacity), in ms; 0 when it does. */
  waitFor(cost: number, now: number): number {
    this.refill(now);
    const needed = Math.min(cost, this.capacity);
    return this.level >= needed ? 0 : ((needed - this.level) * MINUTE_MS) / this.capacity;
  }

  take(n: number, now: number): void {
    this.refill(now);
    this.level -= n;
  }

  give(n: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.capacity, this.level + n);
  }

  remaining(now: number): number {
    this.refill(now);
    return Math.max(0, Math.floor(this.level));
  }

  /** When the bucket will be full again. */
  fullAt(now: number): number {
    this.refill(now);
    return now + Math.max(0, ((this.capacity - this.level) * MINUTE_MS) / this.capacity);
  }

  fill(): void {
    this.level = this.capacity;
  }
}

/** What a dimension reports when it is not metered: [limit, remaining]. */
const UNMETERED: Readonly<Record<Dimension, readonly [number, number]>> = {
  requests: [4000, 3999],
  input_tokens: [1_600_000, 1_599_000],
  output_tokens: [400_000, 400_000],
};

interface Reading {
  limit: number;
  remaining: number;
  resetAt: number;
}

/** RFC 3339 at whole seconds, rounded up (a reset is never reported earlier than it is). */
export function rfc3339(ms: number): string {
  return new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The provider rounds token counts in these headers to the nearest thousand. */
function thousands(n: number): number {
  return Math.round(n / 1000) * 1000;
}

export class AccountLimits {
  private readonly buckets: Partial<Record<Dimension, Bucket>> = {};
  private unmetered: { second: number; headers: Readonly<Record<string, string>> } | null = null;

  constructor(options: RateLimitOptions = {}) {
    if (options.requestsPerMinute !== undefined) this.buckets.requests = new Bucket(options.requestsPerMinute);
    if (options.inputTokensPerMinute !== undefined) this.buckets.input_tokens = new Bucket(options.inputTokensPerMinute);
    if (options.outputTokensPerMinute !== undefined) this.buckets.output_tokens = new Bucket(options.outputTokensPerMinute);
  }

  get metered(): boolean {
    return Object.keys(this.buckets).length > 0;
  }

  /** Takes the request's cost from every bucket, or says which bucket refuses it and for how long. */
  admit(cost: RequestCost, now: number): LimitRefusal | null {
    const costs: Record<Dimension, number> = { requests: 1, input_tokens: cost.input, output_tokens: cost.output };
    // The bucket that keeps the request waiting longest is the one the refusal names.
    let longest: { dimension: Dimension; bucket: Bucket; waitMs: number } | null = null;
    for (const dimension of DIMENSIONS) {
      const bucket = this.buckets[dimension];
      const waitMs = bucket?.waitFor(costs[dimension], now) ?? 0;
      if (bucket !== undefined && waitMs > 0 && (longest === null || waitMs > longest.waitMs)) longest = { dimension, bucket, waitMs };
    }
    if (longest !== null) return { dimension: longest.dimension, limit: longest.bucket.capacity, retryAfterSeconds: Math.max(1, Math.ceil(Math.round(longest.waitMs) / 1000)) };
    for (const dimension of DIMENSIONS) this.buckets[dimension]?.take(costs[dimension], now);
    return null;
  }

  /** The request ended having written `used` of the `reserved` output tokens: the rest goes back. */
  settleOutput(reserved: number, used: number, now: number): void {
    if (reserved > used) this.buckets.output_tokens?.give(reserved - used, now);
  }

  /** Every bucket full again. */
  reset(): void {
    for (const bucket of Object.values(this.buckets)) bucket.fill();
  }

  private read(dimension: Dimension, now: number): Reading {
    const bucket = this.buckets[dimension];
    if (bucket === undefined) {
      const [limit, remaining] = UNMETERED[dimension];
      return { limit, remaining, resetAt: now + MINUTE_MS };
    }
    return { limit: bucket.capacity, remaining: bucket.remaining(now), resetAt: bucket.fullAt(now) };
  }

  /**
   * The provider's rate-limit headers: requests, input and output tokens, and `tokens` for both
   * together (the sum of the two, reset when both are full). Token counts are rounded to thousands.
   */
  headers(now: number): Readonly<Record<string, string>> {
    if (this.metered) return this.readHeaders(now);
    // Nothing metered: the same fixed values for a whole second (read on every answer).
    const second = Math.floor(now / 1000);
    if (this.unmetered === null || this.unmetered.second !== second) this.unmetered = { second, headers: this.readHeaders(second * 1000) };
    return this.unmetered.headers;
  }

  private readHeaders(now: number): Record<string, string> {
    const requests = this.read('requests', now);
    const input = this.read('input_tokens', now);
    const output = this.read('output_tokens', now);
    return {
      'anthropic-ratelimit-requests-limit': String(requests.limit),
      'anthropic-ratelimit-requests-remaining': String(requests.remaining),
      'anthropic-ratelimit-requests-reset': rfc3339(requests.resetAt),
      'anthropic-ratelimit-tokens-limit': String(input.limit + output.limit),
      'anthropic-ratelimit-tokens-remaining': String(thousands(input.remaining + output.remaining)),
      'anthropic-ratelimit-tokens-reset': rfc3339(Math.max(input.resetAt, output.resetAt)),
      'anthropic-ratelimit-input-tokens-limit': String(input.limit),
      'anthropic-ratelimit-input-tokens-remaining': String(thousands(input.remaining)),
      'anthropic-ratelimit-input-tokens-reset': rfc3339(input.resetAt),
      'anthropic-ratelimit-output-tokens-limit': String(output.limit),
      'anthropic-ratelimit-output-tokens-remaining': String(thousands(output.remaining)),
      'anthropic-ratelimit-output-tokens-reset': rfc3339(output.resetAt),
    };
  }
}
