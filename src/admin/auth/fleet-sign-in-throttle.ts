// The sign-in throttle over a fleet of instances sharing Redis: the same rules (throttle.ts), counted in
// Redis so failures spread over instances add up. An attempt is checked here first (this process's own
// count, and the refusals the fleet has already answered), so a refused subject costs no round trip; one
// that may go on is counted in Redis by one atomic script, which refuses it when the fleet's counts say
// so. While Redis is not answering, this process's count alone decides.
import { randomBytes } from 'node:crypto';
import { BlockedUntil } from '../../policy/ratelimit/blocked-until.js';
import { SIGN_IN_BEGIN_SCRIPT, SIGN_IN_SUCCEEDED_SCRIPT } from '../../stores/redis/failure-scripts.js';
import type { GuardedRedis } from '../../stores/redis/guarded-redis.js';
import { StoreUnavailableError } from '../../stores/redis/guarded-redis.js';
import { signInEntries } from '../../stores/redis/keys.js';
import type { AttemptThrottle } from './sign-in-attempt.js';
import type { SignInThrottle, Subjects } from './throttle.js';

export interface FleetSignInOptions {
  prefix: string;
  /** A reply Redis gave but this code did not expect (a script error): worth a log line. */
  onError?: (err: unknown) => void;
}

export class FleetSignInThrottle implements AttemptThrottle {
  /** Per (account, address): refusals the fleet has answered. */
  private readonly refused = new BlockedUntil(Date.now);
  /** The id each attempt was counted under in Redis, to forgive exactly it on success. */
  private readonly attemptIds = new WeakMap<Subjects, string>();
  private readonly args: string[];

  constructor(
    private readonly local: SignInThrottle,
    private readonly redis: GuardedRedis,
    private readonly options: FleetSignInOptions,
  ) {
    const { pair, address, account, accountKeep } = local.rules;
    this.args = [pair.maxFailures, pair.windowMs, address.maxFailures, address.windowMs, account.afterFailures, account.baseMs, account.maxMs, account.windowMs, accountKeep].map(String);
  }

  async begin(s: Subjects): Promise<number> {
    const pairKey = JSON.stringify([s.account, s.address]);
    const known = this.refused.waitFor(pairKey);
    if (known > 0) return known;
    const localWait = this.local.begin(s);
    if (localWait > 0) return localWait;
    const id = randomBytes(9).toString('base64url');
    let waitMs: number;
    try {
      waitMs = Number(await this.redis.evalScript(SIGN_IN_BEGIN_SCRIPT, this.keys(s), [id, ...this.args]));
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) this.options.onError?.(err);
      return 0; // counted here: this process's count decides while Redis does not
    }
    if (waitMs > 0) {
      this.local.cancel(s);
      this.refused.block(pairKey, waitMs);
      return waitMs;
    }
    this.attemptIds.set(s, id);
    return 0;
  }

  succeeded(s: Subjects): void {
    this.local.succeeded(s);
    const id = this.attemptIds.get(s);
    if (id === undefined) return;
    this.attemptIds.delete(s);
    // Off the answer's path: a forgiveness Redis misses only leaves one attempt counted until its window ends.
    this.redis.evalScript(SIGN_IN_SUCCEEDED_SCRIPT, this.keys(s), [id]).catch((err: unknown) => {
      if (!(err instanceof StoreUnavailableError)) this.options.onError?.(err);
    });
  }

  private keys(s: Subjects): string[] {
    const entries = signInEntries(this.options.prefix, s.account, s.address);
    return [entries.pair, entries.address, entries.account];
  }
}
