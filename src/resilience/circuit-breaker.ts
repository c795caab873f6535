// A circuit breaker for one upstream. Closed: calls go through and consecutive failures are
// counted. Open (after `failureThreshold` of them): calls fail fast until the cool-down is over.
// Half-open: one probe call goes through; its success closes the circuit, its failure opens it again.
import type { BreakerSettings } from '../config/config.js';
import type { CircuitState } from '../observability/metrics.js';

export type { CircuitState };

/** What `allow` granted: an ordinary call, or the one probe of a half-open circuit; null = fail fast. */
export type Permit = 'call' | 'probe' | null;

export class CircuitBreaker {
  private current: CircuitState = 'closed';
  private failures = 0;
  private openedAt = 0;
  private probeStartedAt: number | null = null;

  constructor(
    readonly name: string,
    private readonly settings: BreakerSettings,
    private readonly onChange: (name: string, state: CircuitState) => void = () => {},
    private readonly now: () => number = () => performance.now(),
  ) {
    onChange(name, 'closed');
  }

  get state(): CircuitState {
    return this.current;
  }

  get enabled(): boolean {
    return this.settings.failureThreshold > 0;
  }

  /** May a call go now? In half-open, one probe at a time. */
  allow(): Permit {
    if (this.current === 'closed' || !this.enabled) return 'call';
    const now = this.now();
    if (this.current === 'open') {
      if (now - this.openedAt < this.settings.coolDownMs) return null;
      this.move('half_open');
    }
    // A probe that never reported (it hangs) would keep the circuit shut: it expires after a cool-down.
    if (this.probeStartedAt !== null && now - this.probeStartedAt < this.settings.coolDownMs) return null;
    this.probeStartedAt = now;
    return 'probe';
  }

  /** Milliseconds until an open circuit lets a probe through. */
  retryAfterMs(): number {
    if (this.current !== 'open') return 0;
    return Math.max(0, this.settings.coolDownMs - (this.now() - this.openedAt));
  }

  success(): void {
    this.failures = 0;
    if (this.current === 'half_open') {
      this.probeStartedAt = null;
      this.move('closed');
    }
  }

  failure(): void {
    if (!this.enabled || this.current === 'open') return;
    if (this.current === 'half_open') return this.open();
    if (++this.failures >= this.settings.failureThreshold) this.open();
  }

  /** The call ended without telling anything about the upstream (the client went away). */
  abandon(permit: Permit): void {
    if (permit === 'probe' && this.current === 'half_open') this.probeStartedAt = null;
  }

  private open(): void {
    this.openedAt = this.now();
    this.probeStartedAt = null;
    this.failures = 0;
    this.move('open');
  }

  private move(state: CircuitState): void {
    if (state === this.current) return;
    this.current = state;
    this.onChange(this.name, state);
  }
}

/** Statuses that say the upstream itself is failing (not the request, not the account's rate limit). */
export function isFailureStatus(status: number): boolean {
  return status === 500 || status === 502 || status === 503 || status === 504 || status === 529;
}
