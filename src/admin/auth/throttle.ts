// Sign-in throttling that an attacker cannot turn into a lock-out of someone else. Failures are counted
// per (account, client address) and per client address in sliding windows; a pair or an address at its
// limit is refused until its oldest counted failure leaves the window. Per account there is no hard limit:
// its failures (from anywhere) set a growing delay that an address which has already failed on the account
// must leave after its own last failure there. So guesses against one account slow down the more of them
// there are, while an address that has not failed on the account (the real person elsewhere) is never made
// to wait by them, and an address that has failed waits at most the longest delay after its own last
// failure, however long others keep guessing.
// An attempt counts as a failure from the moment it starts and is forgiven when it succeeds, so many
// parallel guesses cannot all slip in before the first one is judged. Kept in memory per process: bounded,
// and a restart forgives. With a fleet (Redis) the same rules are also applied to the fleet's counts
// (fleet-sign-in-throttle.ts), and this process's count is the fallback while Redis is not answering.

export interface ThrottleRule {
  /** Failures allowed inside the window; the next attempt is refused. */
  maxFailures: number;
  windowMs: number;
}

export interface BackoffRule {
  /** Failures on the account (inside the window) before any delay. */
  afterFailures: number;
  /** The first delay; it doubles with each further failure on the account, up to maxMs. */
  baseMs: number;
  maxMs: number;
  windowMs: number;
}

export interface SignInThrottleOptions {
  /** Per (account, client address). */
  pair?: ThrottleRule;
  /** Per client address, whatever the account. */
  address?: ThrottleRule;
  /** Per account: the delay between attempts from an address that has failed on it. */
  account?: BackoffRule;
  /** Most subjects remembered at once; the oldest are forgotten first. */
  maxSubjects?: number;
  now?: () => number;
}

export interface Subjects {
  account: string;
  address: string;
}

const DEFAULT_PAIR: ThrottleRule = { maxFailures: 5, windowMs: 15 * 60_000 };
/** Higher: many people may share one address (an office, a proxy). */
const DEFAULT_ADDRESS: ThrottleRule = { maxFailures: 30, windowMs: 15 * 60_000 };
const DEFAULT_ACCOUNT: BackoffRule = { afterFailures: 3, baseMs: 1000, maxMs: 5 * 60_000, windowMs: 15 * 60_000 };

/** The wait an account's recent failures impose on an address that has failed on it. */
export function accountDelayMs(failures: number, rule: BackoffRule): number {
  if (failures < rule.afterFailures) return 0;
  return Math.min(rule.maxMs, rule.baseMs * 2 ** (failures - rule.afterFailures));
}

/** The rules a throttle applies, and how many failures per account it keeps (for a fleet-wide count). */
export interface SignInRules {
  pair: ThrottleRule;
  address: ThrottleRule;
  account: BackoffRule;
  accountKeep: number;
}

export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly pair: ThrottleRule;
  private readonly address: ThrottleRule;
  private readonly account: BackoffRule;
  /** Failures worth remembering per account: beyond these the delay is at its maximum anyway. */
  private readonly accountKeep: number;
  private readonly maxSubjects: number;
  private readonly now: () => number;

  constructor(opts: SignInThrottleOptions = {}) {
    this.pair = opts.pair ?? DEFAULT_PAIR;
    this.address = opts.address ?? DEFAULT_ADDRESS;
    this.account = opts.account ?? DEFAULT_ACCOUNT;
    this.accountKeep = this.account.afterFailures + Math.max(0, Math.ceil(Math.log2(this.account.maxMs / this.account.baseMs))) + 1;
    this.maxSubjects = opts.maxSubjects ?? 50_000;
    this.now = opts.now ?? Date.now;
  }

  /**
   * Starts an attempt: 0 when it may go ahead (it is then counted as failed until `succeeded`), else the
   * milliseconds until one may.
   */
  begin(s: Subjects): number {
    const keys = keysOf(s);
    const pairTimes = this.recent(keys.pair, this.pair.windowMs);
    const waitMs = Math.max(
      limitWait(pairTimes, this.pair, this.now()),
      limitWait(this.recent(keys.address, this.address.windowMs), this.address, this.now()),
      this.backoffWait(pairTimes, keys.account),
    );
    if (waitMs > 0) return waitMs;
    this.add(keys.pair, this.pair.windowMs, this.pair.maxFailures);
    this.add(keys.address, this.address.windowMs, this.address.maxFailures);
    this.add(keys.account, this.account.windowMs, this.accountKeep);
    return 0;
  }

  get rules(): SignInRules {
    return { pair: this.pair, address: this.address, account: this.account, accountKeep: this.accountKeep };
  }

  /** Takes back the attempt `begin` just counted: it did not happen after all (the fleet refused it). */
  cancel(s: Subjects): void {
    const keys = keysOf(s);
    for (const key of [keys.pair, keys.address, keys.account]) {
      const times = this.failures.get(key);
      times?.pop();
      if (times?.length === 0) this.failures.delete(key);
    }
  }

  /**
   * Forgives this pair's failures (the person has shown they know the secret from here) and this attempt on
   * the address and the account, not the others' failures there.
   */
  succeeded(s: Subjects): void {
    const keys = keysOf(s);
    this.failures.delete(keys.pair);
    this.failures.get(keys.address)?.pop();
    this.failures.get(keys.account)?.pop();
  }

  private backoffWait(pairTimes: readonly number[], accountKey: string): number {
    if (pairTimes.length === 0) return 0; // an address that has not failed here never waits for others
    const delay = accountDelayMs(this.recent(accountKey, this.account.windowMs).length, this.account);
    return Math.max(0, (pairTimes[pairTimes.length - 1] as number) + delay - this.now());
  }

  private recent(key: string, windowMs: number): number[] {
    const since = this.now() - windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  private add(key: string, windowMs: number, keep: number): void {
    const times = this.recent(key, windowMs);
    times.push(this.now());
    // Only the newest `keep` times matter for any answer.
    if (times.length > keep) times.splice(0, times.length - keep);
    this.failures.delete(key); // re-insert so Map order is least-recently-failed first
    this.failures.set(key, times);
    while (this.failures.size > this.maxSubjects) this.failures.delete(this.failures.keys().next().value as string);
  }
}

function keysOf(s: Subjects): { pair: string; address: string; account: string } {
  // JSON keeps the pair key unambiguous whatever characters an email or address holds.
  return { pair: `p:${JSON.stringify([s.account, s.address])}`, address: `i:${s.address}`, account: `a:${s.account}` };
}

/** 0 below the limit, else the time until the oldest counted failure leaves the window. */
function limitWait(times: readonly number[], rule: ThrottleRule, now: number): number {
  if (times.length < rule.maxFailures) return 0;
  return (times[times.length - rule.maxFailures] as number) + rule.windowMs - now;
}
