// What this instance knows about one route now: whether it is cooling down (throttled, or out of
// headroom until its rate limit resets), how many unhinted throttles it took in a row, the last
// headroom its provider reported, and its failure-rate circuit breaker. Cool-downs are kept in
// wall-clock epoch milliseconds, so one learned by another instance (through the fleet's Redis)
// means the same moment here.
import type { CircuitBreaker } from '../resilience/circuit-breaker.js';
import { unhintedCoolDownMs } from './cool-down.js';
import type { HeadroomReading } from './headroom.js';
import type { Route } from './route.js';

/** Why a route is cooling down: a 429 or throttling answer (or a stream broken off by a throttle or overload), or a rate limit reported at 0. */
export type CoolDownReason = 'throttled' | 'no_headroom';

export interface CoolDown {
  /** Epoch milliseconds. */
  readonly until: number;
  readonly reason: CoolDownReason;
}

export class RouteState {
  private coolDown: CoolDown | null = null;
  /** Throttles without a retry hint in a row: each doubles the next unhinted cool-down. */
  private strikes = 0;
  /** Its running credit in the smooth weighted round robin of requests without a session (planner.ts). */
  credit = 0;
  /** The provider's last rate-limit headers for this route (null: it sent none yet). */
  headroom: HeadroomReading | null = null;

  constructor(
    readonly route: Route,
    readonly breaker: CircuitBreaker,
  ) {}

  /** The cool-down in force at `wallNow`, or null when the route may be tried. */
  coolingAt(wallNow: number): CoolDown | null {
    const c = this.coolDown;
    if (c === null) return null;
    if (c.until > wallNow) return c;
    this.coolDown = null;
    return null;
  }

  /**
   * A 429 or a throttling answer. `hintedUntil`: when the provider said it may be tried again
   * (retry-after, or its limit's reset), or null; then the unhinted cool-down doubles on repeats.
   * Returns the cool-down now in force.
   */
  throttled(hintedUntil: number | null, wallNow: number): CoolDown {
    const until = hintedUntil ?? wallNow + unhintedCoolDownMs(this.strikes);
    if (hintedUntil === null) this.strikes++;
    return this.coolUntil(until, 'throttled');
  }

  /** The provider reported a rate limit at 0 until `until`. */
  exhausted(until: number): CoolDown {
    return this.coolUntil(until, 'no_headroom');
  }

  /** An answer that was not a throttle: the next unhinted throttle starts from the first step again. */
  served(): void {
    this.strikes = 0;
  }

  /** A cool-down learned elsewhere (another instance): applied if it ends later than the one in force. */
  coolUntil(until: number, reason: CoolDownReason): CoolDown {
    if (this.coolDown === null || until > this.coolDown.until) this.coolDown = { until, reason };
    return this.coolDown;
  }
}
