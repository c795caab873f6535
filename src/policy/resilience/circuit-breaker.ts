// The circuit breaker of one model route. Closed: calls go through, and their outcomes are counted in a
// rolling window. It opens when at least `failurePercent` of at least `minCalls` calls in the window
// failed: a handful of errors at low volume (one customer's bad luck) never opens it.
// Open: requests should go elsewhere (a fallback model) when they can. With nowhere else to go they
// still reach the upstream while it is busy (some calls succeed), and fail fast only while it is down
// (every call of the window failed). After the cool-down the circuit is half-open: one probe call goes
// through; its success closes the circuit, its failure opens it for another cool-down.
import type { BreakerSettings } from '../../config/config.js';
import type { CircuitState } from '../../observability/metrics.js';
import { RollingWindow } from './rolling-window.js';

export type { CircuitState };

/** Told the initial state (`previous` null) and every change. */
export type StateListener = (name: string, state: CircuitState, previous: CircuitState | null) => void;

/** What `allow` granted: an ordinary call, or the one probe of a half-open circuit; null = not this route. */
export type Permit = 'call' | 'probe' | null;

export class CircuitBreaker {
  private current: CircuitState = 'closed';
  private readonly window: RollingWindow;
  private openedAt = 0;
  /** Every call of the window failed (the upstream is down, not busy): requests fail fast. */
  private down = false;
  private probeStartedAt: number | null = null;

  constructor(
    readonly name: string,
    private readonly settings: BreakerSettings,
    private readonly onChange: StateListener = () => {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.window = new RollingWindow(settings.windowMs);
    onChange(name, 'closed', null);
  }

  get state(): CircuitState {
    return this.current;
  }

  get enabled(): boolean {
    return this.settings.minCalls > 0;
  }

  /**
   * May a call take this route now? `elsewhere`: the request has another route to try, so an open
   * circuit sends it there; without one it only fails fast while the route is down.
   */
  allow(elsewhere: boolean): Permit {
    if (this.current === 'closed' || !this.enabled) return 'call';
    const now = this.now();
    if (this.current === 'open' && now - this.openedAt >= this.settings.coolDownMs) this.move('half_open');
    // A probe that never reported (it hangs) would keep the circuit shut: it expires after a cool-down.
    if (this.current === 'half_open' && (this.probeStartedAt === null || now - this.probeStartedAt >= this.settings.coolDownMs)) {
      this.probeStartedAt = now;
      return 'probe';
    }
    return elsewhere || this.down ? null : 'call';
  }

  /** Milliseconds until a probe may go: the `retry-after` of a request refused by `allow`. */
  retryAfterMs(): number {
    if (this.current === 'closed') return 0;
    const since = this.probeStartedAt ?? this.openedAt;
    return Math.max(0, this.settings.coolDownMs - (this.now() - since));
  }

  /** The outcome of a call `allow` granted: `failed` = the upstream failed it (never a 4xx). */
  report(permit: Permit, failed: boolean): void {
    if (!this.enabled) return;
    const now = this.now();
    this.window.record(failed, now);
    if (permit === 'probe' && this.current === 'half_open') {
      this.probeStartedAt = null;
      if (failed) this.open(now);
      else this.close();
    } else if (this.current === 'closed') {
      if (this.tripped()) this.open(now);
    } else {
      // Calls that still went through while open tell whether the upstream is down or only busy.
      this.down = this.window.allFailed;
    }
  }

  /** The call ended without telling anything about the upstream (the client went away). */
  abandon(permit: Permit): void {
    if (permit === 'probe' && this.current === 'half_open') this.probeStartedAt = null;
  }

  private tripped(): boolean {
    const calls = this.window.callCount;
    return calls >= this.settings.minCalls && this.window.failureCount * 100 >= this.settings.failurePercent * calls;
  }

  private open(now: number): void {
    this.openedAt = now;
    this.probeStartedAt = null;
    this.down = this.window.allFailed;
    this.move('open');
  }

  private close(): void {
    // The failures that opened it are history: counting them again would re-open it at once.
    this.window.reset();
    this.down = false;
    this.move('closed');
  }

  private move(state: CircuitState): void {
    const previous = this.current;
    if (state === previous) return;
    this.current = state;
    this.onChange(this.name, state, previous);
  }
}

/** Statuses that say the upstream itself is failing (not the request, not the account's rate limit). */
export function isFailureStatus(status: number): boolean {
  return status === 500 || status === 502 || status === 503 || status === 504 || status === 529;
}
