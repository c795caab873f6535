// Redis when it is up; otherwise each instance limits alone with its share of every limit (the
// limit divided by the live instances it last knew of), so the fleet as a whole stays near the
// limit. While Redis is skipped a decision costs no round trip at all.
import type { LimitDecision, LimitRequest, Limits, RateLimiter, Reservation } from '../limiter.js';
import { MemoryRateLimiter } from '../memory-limiter.js';
import { RedisReservation } from './redis-limiter.js';

export interface SharedStoreState {
  readonly up: boolean;
}

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
  private inFallback = false;

  constructor(
    private readonly shared: RateLimiter,
    private readonly store: SharedStoreState,
    private readonly instances: LiveInstances,
    private readonly hooks: FallbackHooks = {},
    private readonly local: MemoryRateLimiter = new MemoryRateLimiter(),
  ) {}

  acquire(r: LimitRequest): LimitDecision | Promise<LimitDecision> {
    if (!this.store.up) return this.fallback(r, 'redis down');
    return this.acquireShared(r);
  }

  settle(reservation: Reservation, usedTokens: number): void | Promise<void> {
    if (!(reservation instanceof RedisReservation)) return this.local.settle(reservation, usedTokens);
    // A settle lost with Redis only leaves the reservation as it was: the bucket refills anyway.
    if (!this.store.up) return;
    return Promise.resolve(this.shared.settle(reservation, usedTokens)).catch(() => {});
  }

  private async acquireShared(r: LimitRequest): Promise<LimitDecision> {
    let decision: LimitDecision;
    try {
      decision = await this.shared.acquire(r);
    } catch (err) {
      return this.fallback(r, err instanceof Error ? err.message : String(err));
    }
    if (this.inFallback) {
      this.inFallback = false;
      this.hooks.log?.('resumed', { liveInstances: this.instances.liveInstances, reason: 'redis answering' });
    }
    return decision;
  }

  private fallback(r: LimitRequest, reason: string): LimitDecision {
    const n = Math.max(1, this.instances.liveInstances);
    if (!this.inFallback) {
      this.inFallback = true;
      this.hooks.log?.('fallback', { liveInstances: n, reason });
    }
    this.hooks.onFallbackDecision?.();
    return this.local.acquire({ ...r, keyLimits: shareOf(r.keyLimits, n), customerLimits: r.customerLimits && shareOf(r.customerLimits, n) });
  }
}

/** One instance's part of a limit; never below 1, so a small limit still lets requests through. */
export function shareOf(limits: Limits, instances: number): Limits {
  const part = (limit: number | null) => (limit === null ? null : Math.max(1, Math.floor(limit / instances)));
  return { rpm: part(limits.rpm), tpm: part(limits.tpm) };
}
