// The rate-limiter contract. The in-process implementation answers synchronously; a shared store
// (Redis) answers with a promise, so callers accept either.
import type { RateLimits } from '../../keys/rate-limits.js';

export type LimitScope = 'key' | 'customer';

export interface LimitRequest {
  keyId: string;
  /** The key's own limits (both may be null when only the customer is limited). */
  keyLimits: RateLimits;
  customerId: string;
  customerLimits: RateLimits | null;
  /** Tokens to reserve now (the request's max_tokens); settled later with the real usage. */
  tokens: number;
}

/** One dimension as the rate-limit headers describe it. */
export interface LimitWindow {
  limit: number;
  remaining: number;
  /** Milliseconds until the window is fully replenished. */
  resetMs: number;
}

export interface LimitStatus {
  requests: LimitWindow | null;
  tokens: LimitWindow | null;
}

/** What an accepted request holds until it settles: opaque to the caller, each implementation's own. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- opaque on purpose: each limiter hands back its own shape
export interface Reservation {}

export type LimitDecision =
  | { allowed: true; reservation: Reservation; status: LimitStatus }
  | { allowed: false; scope: LimitScope; retryAfterMs: number; status: LimitStatus };

export interface RateLimiter {
  acquire(request: LimitRequest): LimitDecision | Promise<LimitDecision>;
  /** Replaces the reservation by what the request really used (input + output tokens). */
  settle(reservation: Reservation, usedTokens: number): void | Promise<void>;
}

