// The in-process rate limiter: a requests bucket and a tokens bucket per key and per customer.
// A request passes only when every bucket that applies has room; a refused request costs nothing.
import type { LimitDecision, LimitRequest, LimitScope, LimitStatus, LimitWindow, RateLimiter, Reservation } from './limiter.js';
import type { RateLimits } from '../../keys/rate-limits.js';
import { hasLimits } from '../../keys/rate-limits.js';
import { TokenBucket } from '../../lib/token-bucket.js';

/** The window every rate limit is counted over: a bucket refills whole in it. */
export const RATE_WINDOW_MS = 60_000;
/** Full buckets carry no information (a new one is the same), so they are dropped now and then. */
const SWEEP_EVERY = 4096;

interface Buckets {
  requests: TokenBucket | null;
  tokens: TokenBucket | null;
}

/** A reservation as plain data: what crosses a process boundary (the cluster's limits channel). */
export interface ReservationData {
  readonly keyId: string;
  readonly keyTokens: number;
  readonly customerId: string;
  readonly customerTokens: number;
  readonly keyLimits: RateLimits;
  readonly customerLimits: RateLimits | null;
}

class MemoryReservation implements Reservation, ReservationData {
  constructor(
    readonly keyId: string,
    readonly keyTokens: number,
    readonly customerId: string,
    readonly customerTokens: number,
    readonly keyLimits: RateLimits,
    readonly customerLimits: RateLimits | null,
  ) {}
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly keys = new Map<string, Buckets>();
  private readonly customers = new Map<string, Buckets>();
  private acquisitions = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  acquire(r: LimitRequest): LimitDecision {
    const now = this.now();
    if (++this.acquisitions % SWEEP_EVERY === 0) this.sweep(now);
    const key = hasLimits(r.keyLimits) ? bucketsFor(this.keys, r.keyId, r.keyLimits, now) : null;
    const customer = hasLimits(r.customerLimits) ? bucketsFor(this.customers, r.customerId, r.customerLimits, now) : null;
    const keyTokens = clampTo(r.tokens, key);
    const customerTokens = clampTo(r.tokens, customer);
    const keyWait = waitFor(key, keyTokens, now);
    const customerWait = waitFor(customer, customerTokens, now);
    if (keyWait > 0 || customerWait > 0) {
      const scope: LimitScope = keyWait >= customerWait ? 'key' : 'customer';
      return { allowed: false, scope, retryAfterMs: Math.max(keyWait, customerWait), status: statusOf(key, customer, now) };
    }
    take(key, keyTokens, now);
    take(customer, customerTokens, now);
    const reservation = new MemoryReservation(r.keyId, keyTokens, r.customerId, customerTokens, r.keyLimits, r.customerLimits);
    return { allowed: true, reservation, status: statusOf(key, customer, now) };
  }

  /** A reservation this limiter handed out, back from plain data (it went to another process and returned). */
  static reservationFrom(data: ReservationData): Reservation {
    return new MemoryReservation(data.keyId, data.keyTokens, data.customerId, data.customerTokens, data.keyLimits, data.customerLimits);
  }

  settle(reservation: Reservation, usedTokens: number): void {
    if (!(reservation instanceof MemoryReservation)) throw new TypeError('settle: not a reservation of this limiter');
    const now = this.now();
    const r = reservation;
    // Looked up again: the bucket may have been swept or resized while the request ran.
    if (r.keyLimits.tpm !== null) this.adjust(this.keys, r.keyId, r.keyLimits, usedTokens - r.keyTokens, now);
    if (r.customerLimits !== null && r.customerLimits.tpm !== null) {
      this.adjust(this.customers, r.customerId, r.customerLimits, usedTokens - r.customerTokens, now);
    }
  }

  /** Buckets held now (for tests and the soak run: idle ones must not accumulate). */
  get size(): number {
    return this.keys.size + this.customers.size;
  }

  /** Drops every bucket that is full again. */
  sweep(now: number = this.now()): void {
    dropFull(this.keys, now);
    dropFull(this.customers, now);
  }

  private adjust(map: Map<string, Buckets>, id: string, limits: RateLimits, delta: number, now: number): void {
    if (delta === 0) return;
    const existing = map.get(id);
    // A missing bucket is full: giving tokens back changes nothing, a debt needs a bucket.
    if (existing === undefined && delta < 0) return;
    const buckets = existing ?? bucketsFor(map, id, limits, now);
    buckets.tokens?.take(delta, now);
  }
}

function bucketsFor(map: Map<string, Buckets>, id: string, limits: RateLimits, now: number): Buckets {
  let b = map.get(id);
  if (b === undefined) {
    b = { requests: null, tokens: null };
    map.set(id, b);
  }
  b.requests = fit(b.requests, limits.rpm, now);
  b.tokens = fit(b.tokens, limits.tpm, now);
  return b;
}

/** Keeps the bucket in step with the key's current limit (keys can be edited while in use). */
function fit(bucket: TokenBucket | null, limit: number | null, now: number): TokenBucket | null {
  if (limit === null) return null;
  if (bucket === null) return new TokenBucket(limit, RATE_WINDOW_MS, now);
  bucket.resize(limit, now);
  return bucket;
}

/** A reservation larger than the whole bucket could never pass; it reserves the bucket instead. */
function clampTo(tokens: number, b: Buckets | null): number {
  const cap = b?.tokens?.capacity;
  return cap === undefined ? 0 : Math.min(tokens, cap);
}

function waitFor(b: Buckets | null, tokens: number, now: number): number {
  if (b === null) return 0;
  const requestWait = b.requests === null ? 0 : b.requests.msUntil(1, now);
  const tokenWait = b.tokens === null ? 0 : b.tokens.msUntil(tokens, now);
  return Math.max(requestWait, tokenWait);
}

function take(b: Buckets | null, tokens: number, now: number): void {
  if (b === null) return;
  b.requests?.take(1, now);
  b.tokens?.take(tokens, now);
}

/** Per dimension, the tighter of the key's and the customer's window. */
function statusOf(key: Buckets | null, customer: Buckets | null, now: number): LimitStatus {
  return {
    requests: tighter(windowOf(key?.requests ?? null, now), windowOf(customer?.requests ?? null, now)),
    tokens: tighter(windowOf(key?.tokens ?? null, now), windowOf(customer?.tokens ?? null, now)),
  };
}

function windowOf(bucket: TokenBucket | null, now: number): LimitWindow | null {
  if (bucket === null) return null;
  return { limit: bucket.capacity, remaining: Math.max(0, Math.floor(bucket.available(now))), resetMs: bucket.msUntilFull(now) };
}

function tighter(a: LimitWindow | null, b: LimitWindow | null): LimitWindow | null {
  if (a === null) return b;
  if (b === null) return a;
  return b.remaining < a.remaining ? b : a;
}

function dropFull(map: Map<string, Buckets>, now: number): void {
  for (const [id, b] of map) {
    if ((b.requests === null || b.requests.isFull(now)) && (b.tokens === null || b.tokens.isFull(now))) map.delete(id);
  }
}
