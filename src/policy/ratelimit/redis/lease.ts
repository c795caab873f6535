// A lease: requests and tokens this instance took out of a busy key's shared buckets in advance (the
// acquire script grants it after deciding its batch), so the key's next requests are decided here with
// no round trip. What a lease holds is already gone from the buckets in Redis, and the buckets do not
// refill into it while it may be used (the entry records what leases hold: bucket-lua.ts), so the fleet
// never accepts more than one bucket alone would. What a lease costs is precision the other way: while
// one instance holds requests it does not use, the others see that much less. So a lease is small against
// what is left (the script caps it by the bucket's level over LEASE_DIVISOR times the live instances),
// short (LEASE_TTL_MS from before its script was sent, so never longer after the grant), only for a key
// asked for again within that time, and what it still holds goes back with the key's next script.
import type { RateLimits } from '../../../keys/rate-limits.js';
import type { LimitRequest, LimitStatus, LimitWindow } from '../limiter.js';
import { RATE_WINDOW_MS } from '../memory-limiter.js';

/** All the instances together hold at most this fraction of what a bucket has left (1 / divisor). */
export const LEASE_DIVISOR = 16;
/** A lease's life: what it holds goes back afterwards, and a limit edited meanwhile applies at once anyway. */
export const LEASE_TTL_MS = 1000;
/** The most requests one lease holds. */
export const MAX_LEASE_REQUESTS = 256;
/**
 * The fewest: a smaller lease saves next to nothing and costs precision, so a small limit (or a bucket
 * nearly empty) is decided in Redis request by request, as without leases.
 */
export const MIN_LEASE_REQUESTS = 8;

export class Lease {
  private readonly tokensLimited: boolean;
  /** Given back (or on its way): no longer decides or absorbs anything. */
  private retired = false;
  /** Requests and tokens left to decide requests with. */
  requests: number;
  tokens: number;
  /**
   * Tokens settles gave back (reserved, not used): they go back to the buckets with the lease, and are
   * not used meanwhile (they were never part of what Redis counts as held by leases).
   */
  refunds = 0;

  constructor(
    /** The limits the lease was taken under: a request under others goes to Redis. */
    readonly keyLimits: RateLimits,
    readonly customerLimits: RateLimits | null,
    /** The generation Redis granted it in (what giving it back names). */
    readonly generation: string,
    /** Requests and tokens granted, taken from every limited bucket of the key and of its customer alike. */
    readonly grantedRequests: number,
    readonly grantedTokens: number,
    /** The windows as Redis left them after granting the lease (what the rest of the fleet can still take). */
    private readonly shared: LimitStatus,
    readonly expiresAt: number,
  ) {
    this.tokensLimited = keyLimits.tpm !== null || (customerLimits?.tpm ?? null) !== null;
    this.requests = grantedRequests;
    this.tokens = grantedTokens;
  }

  /** Whether this request can be decided from the lease: in time, under the same limits, and it fits. */
  covers(r: LimitRequest, now: number): boolean {
    return this.live(now) && this.requests >= 1 && (!this.tokensLimited || this.tokens >= r.tokens) && this.takenUnder(r.keyLimits, r.customerLimits);
  }

  /** Held and in time. */
  live(now: number): boolean {
    return !this.retired && now < this.expiresAt;
  }

  /** Whether these are the limits the lease was taken under (so it holds of the same buckets). */
  takenUnder(keyLimits: RateLimits, customerLimits: RateLimits | null): boolean {
    return sameLimits(this.keyLimits, keyLimits) && sameCustomerLimits(this.customerLimits, customerLimits);
  }

  /** Takes one request and its tokens (covers() said they are there); the tokens each bucket reserved. */
  take(r: LimitRequest): { keyTokens: number; customerTokens: number } {
    this.requests -= 1;
    if (this.tokensLimited) this.tokens -= r.tokens;
    return {
      keyTokens: this.keyLimits.tpm === null ? 0 : r.tokens,
      customerTokens: (this.customerLimits?.tpm ?? null) === null ? 0 : r.tokens,
    };
  }

  /**
   * A settle of the key's, applied to the lease instead of Redis: tokens not used are kept to go back with
   * it, a debt is paid from them or from its tokens, and all of it reaches Redis when the lease goes back.
   * Whichever lease or script admitted the request, its tokens came out of the same buckets, so only the
   * moment the buckets see the settle changes. The caller checks the limits (takenUnder) and that the key
   * and the customer reserved alike. False when it cannot pay the debt (the settle goes to Redis).
   */
  absorb(reserved: number, used: number, now: number): boolean {
    if (!this.live(now)) return false;
    const back = reserved - used;
    if (back >= 0) {
      this.refunds += back;
      return true;
    }
    const fromRefunds = Math.min(this.refunds, -back);
    if (this.tokens < -back - fromRefunds) return false;
    this.refunds -= fromRefunds;
    this.tokens -= -back - fromRefunds;
    return true;
  }

  /** Ends the lease: what it still holds, to give back to Redis. */
  retire(): { requests: number; tokens: number } {
    this.retired = true;
    return { requests: this.requests, tokens: this.tokens + this.refunds };
  }

  /** The windows the headers show: the fleet's, as Redis left them, plus what this lease still holds. */
  status(): LimitStatus {
    return { requests: withHeld(this.shared.requests, this.requests), tokens: withHeld(this.shared.tokens, this.tokens) };
  }
}

function withHeld(w: LimitWindow | null, held: number): LimitWindow | null {
  if (w === null) return null;
  const remaining = Math.min(w.limit, w.remaining + Math.floor(held));
  // The time until full at the bucket's own rate (a limit refills whole in a minute).
  const resetMs = w.limit > 0 ? Math.ceil(((w.limit - remaining) * RATE_WINDOW_MS) / w.limit) : w.resetMs;
  return { limit: w.limit, remaining, resetMs };
}

function sameLimits(a: RateLimits, b: RateLimits): boolean {
  return a.rpm === b.rpm && a.tpm === b.tpm;
}

function sameCustomerLimits(a: RateLimits | null, b: RateLimits | null): boolean {
  if (a === null || b === null) return a === b;
  return sameLimits(a, b);
}

/**
 * How long a key's acquires count towards how busy it is: each with weight e^(-age / BUSY_TIME_CONSTANT_MS),
 * so a key asked for steadily r times a second on this instance reads about r / 10 (the requests of the
 * last 100 ms), and a burst of n reads about n.
 */
export const BUSY_TIME_CONSTANT_MS = 100;

/** How busy a key is after one more acquire, `msSincePrevious` after the one before. */
export function busierBy(busy: number, msSincePrevious: number): number {
  return busy * Math.exp(-msSincePrevious / BUSY_TIME_CONSTANT_MS) + 1;
}

/**
 * How many requests to ask a lease for, from how busy the key is (busierBy): twice that, so about 200 ms
 * of its traffic, if its last script was within a lease's life; none otherwise, or under
 * MIN_LEASE_REQUESTS (each request of a quiet key goes to Redis, exactly). Counting over time rather than
 * since the key's last script matters for steady traffic: requests that come one at a time, each after the
 * previous one's script has answered, are never several since the last script however many a second come.
 */
export function leaseWanted(busy: number, msSinceLastScript: number): number {
  if (msSinceLastScript >= LEASE_TTL_MS) return 0;
  const wanted = Math.min(MAX_LEASE_REQUESTS, Math.floor(2 * busy));
  return wanted < MIN_LEASE_REQUESTS ? 0 : wanted;
}
