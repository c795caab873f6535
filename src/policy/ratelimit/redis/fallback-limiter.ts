// Redis when it is up; otherwise each instance limits alone with its share of every limit (the
// limit divided by the live instances it last knew of), so the fleet as a whole stays near the
// limit. While Redis is skipped a decision costs no round trip at all.
import type { LimitDecision, LimitRequest, RateLimiter, Reservation } from '../limiter.js';
import type { RateLimits } from '../../../keys/rate-limits.js';
import { MemoryRateLimiter } from '../memory-limiter.js';
import { RedisReservation } from './redis-limiter.js';
import { SharedOrLocal, type SharedStoreState } from '../../../stores/redis/shared-or-local.js';

export type { SharedStoreState };

export interface LiveInstances {
  readonly liveInstances: number;
}

export interface FallbackHooks {
  /** One per decision taken without Redis: the fallback-decisions counter. */
  onFallbackDecision?: () => void;
  /** Once when falling back, once when sharing resumes (not per request). */
  log?: (event: 'fallback' | 'resumed', detail: { liveInstances: number; reason: string }) => void;
}

export class FallbackLimiter implements RateLimiter {
  private readonly switch: SharedOrLocal;

  constructor(
    private readonly shared: RateLimiter,
    store: SharedStoreState,
    private readonly instances: LiveInstances,
    private readonly hooks: FallbackHooks = {},
    private readonly local: MemoryRateLimiter = new MemoryRateLimiter(),
  ) {
    this.switch = new SharedOrLocal(store, (event, reason) => this.hooks.log?.(event, { liveInstances: Math.max(1, this.instances.liveInstances), reason }));
  }

  acquire(r: LimitRequest): LimitDecision | Promise<LimitDecision> {
    return this.switch.decide(
      () => this.shared.acquire(r),
      () => this.fallback(r),
    );
  }

  settle(reservation: Reservation, usedTokens: number): void | Promise<void> {
    // A settle lost with Redis only leaves the reservation as it was: the bucket refills anyway.
    return this.switch.settle(
      reservation instanceof RedisReservation,
      () => this.shared.settle(reservation, usedTokens),
      () => this.local.settle(reservation, usedTokens),
    );
  }

  private fallback(r: LimitRequest): LimitDecision {
    const n = Math.max(1, this.instances.liveInstances);
    this.hooks.onFallbackDecision?.();
    return this.local.acquire({ ...r, keyLimits: shareOf(r.keyLimits, n), customerLimits: r.customerLimits && shareOf(r.customerLimits, n) });
  }
}

/** One instance's part of a limit; never below 1, so a small limit still lets requests through. */
export function shareOf(limits: RateLimits, instances: number): RateLimits {
  const part = (limit: number | null) => (limit === null ? null : Math.max(1, Math.floor(limit / instances)));
  return { rpm: part(limits.rpm), tpm: part(limits.tpm) };
}
