// Sign-in throttling: failures are counted per subject (an account, a client address) in a sliding window;
// a subject at its limit is refused, right password or not, until its oldest counted failure leaves the
// window. An attempt counts as a failure from the moment it starts and is forgiven when it succeeds, so
// many parallel guesses cannot all slip in before the first one is judged. Kept in memory per process:
// bounded, and a restart forgives.

export interface ThrottleRule {
  /** Failures allowed inside the window; the next attempt is refused. */
  maxFailures: number;
  windowMs: number;
}

export interface SignInThrottleOptions {
  account?: ThrottleRule;
  address?: ThrottleRule;
  /** Most subjects remembered at once; the oldest are forgotten first. */
  maxSubjects?: number;
  now?: () => number;
}

export interface Subjects {
  account: string;
  address: string;
}

const DEFAULT_ACCOUNT: ThrottleRule = { maxFailures: 5, windowMs: 15 * 60_000 };
/** Higher: many people may share one address (an office, a proxy). */
const DEFAULT_ADDRESS: ThrottleRule = { maxFailures: 30, windowMs: 15 * 60_000 };

export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly account: ThrottleRule;
  private readonly address: ThrottleRule;
  private readonly maxSubjects: number;
  private readonly now: () => number;

  constructor(opts: SignInThrottleOptions = {}) {
    this.account = opts.account ?? DEFAULT_ACCOUNT;
    this.address = opts.address ?? DEFAULT_ADDRESS;
    this.maxSubjects = opts.maxSubjects ?? 50_000;
    this.now = opts.now ?? Date.now;
  }

  /**
   * Starts an attempt: 0 when it may go ahead (it is then counted as failed until `succeeded`), else the
   * milliseconds until one may.
   */
  begin(s: Subjects): number {
    const waitMs = Math.max(this.wait(`a:${s.account}`, this.account), this.wait(`i:${s.address}`, this.address));
    if (waitMs > 0) return waitMs;
    this.add(`a:${s.account}`, this.account);
    this.add(`i:${s.address}`, this.address);
    return 0;
  }

  /** Forgives the account's failures and this attempt on the address, not the address's other failures. */
  succeeded(s: Subjects): void {
    this.failures.delete(`a:${s.account}`);
    this.failures.get(`i:${s.address}`)?.pop();
  }

  private recent(key: string, rule: ThrottleRule): number[] {
    const since = this.now() - rule.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  private wait(key: string, rule: ThrottleRule): number {
    const times = this.recent(key, rule);
    if (times.length < rule.maxFailures) return 0;
    return times[times.length - rule.maxFailures] + rule.windowMs - this.now();
  }

  private add(key: string, rule: ThrottleRule): void {
    const times = this.recent(key, rule);
    times.push(this.now());
    // Only the newest maxFailures times matter for the answer.
    if (times.length > rule.maxFailures) times.splice(0, times.length - rule.maxFailures);
    this.failures.delete(key); // re-insert so Map order is least-recently-failed first
    this.failures.set(key, times);
    while (this.failures.size > this.maxSubjects) this.failures.delete(this.failures.keys().next().value as string);
  }
}
