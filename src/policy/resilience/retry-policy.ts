// When an upstream call is tried again, and after how long: exponential backoff with full jitter,
// or the provider's own `retry-after` when it gives one (up to a cap).
import type { RetrySettings } from '../../config/config.js';

/**
 * Statuses worth another attempt, on the same route after a pause or on another route at once: rate
 * limited (429) and every server-side failure (5xx, the provider's 529 overload included). A 504 is the
 * provider's timeout (Bedrock's ModelTimeoutException, Vertex's DEADLINE_EXCEEDED): another route or
 * account may answer in time.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

export class RetryPolicy {
  constructor(
    private readonly settings: RetrySettings,
    private readonly random: () => number = Math.random,
  ) {}

  get attempts(): number {
    return this.settings.attempts;
  }

  get deadlineMs(): number {
    return this.settings.deadlineMs;
  }

  /** The longest `retry-after` worth waiting for; beyond it the provider's answer is the client's. */
  get retryAfterCapMs(): number {
    return this.settings.retryAfterCapMs;
  }

  /**
   * How long to wait before attempt number `attempt + 1` (attempt counts from 0), or null when the
   * provider asked for a longer pause than the cap: then its answer is the client's answer.
   */
  delayMs(attempt: number, headers: UpstreamHeaders | null): number | null {
    const asked = headers === null ? null : retryAfterMs(headers);
    if (asked !== null) return asked > this.settings.retryAfterCapMs ? null : asked;
    const ceiling = Math.min(this.settings.maxDelayMs, this.settings.baseDelayMs * 2 ** attempt);
    return Math.floor(this.random() * ceiling);
  }
}

/** Longer than any pause worth waiting for, and far from where seconds × 1000 overflows. */
const MAX_SECONDS = 1e9;

/** `retry-after-ms` (what the provider's SDKs read first), else `retry-after` in seconds or as a date. */
export function retryAfterMs(headers: UpstreamHeaders, wallNow: number = Date.now()): number | null {
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined) {
    const n = Number(ms);
    if (ms !== '' && Number.isFinite(n) && n >= 0 && n < MAX_SECONDS * 1000) return Math.ceil(n);
  }
  const raw = first(headers['retry-after']);
  if (raw === undefined || raw === '') return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 && seconds < MAX_SECONDS ? Math.ceil(seconds * 1000) : null;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - wallNow);
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
