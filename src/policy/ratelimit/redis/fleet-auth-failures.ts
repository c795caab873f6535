// Failed gateway-key authentications counted over the fleet: every failure this process sees is also
// recorded in Redis (one script, one round trip, after the 401 has been decided, so nothing waits for it),
// and when the fleet's count says the address is over its budget, the local throttle learns to refuse it.
// Successful authentications never touch Redis. While Redis is not answering, the local count alone decides.
import { addressGroup } from '../auth-throttle.js';
import type { AuthThrottle } from '../auth-throttle.js';
import { AUTH_FAILURE_SCRIPT } from '../../../stores/redis/failure-scripts.js';
import type { GuardedRedis } from '../../../stores/redis/guarded-redis.js';
import { StoreUnavailableError } from '../../../stores/redis/guarded-redis.js';
import { authFailuresEntry } from '../../../stores/redis/keys.js';

const MINUTE_MS = 60_000;

export interface FleetAuthFailuresOptions {
  prefix: string;
  failuresPerMinute: number;
  /** A reply Redis gave but this code did not expect (a script error): worth a log line. */
  onError?: (err: unknown) => void;
}

export interface SharedAuthFailures {
  /** Resolves once every failure seen so far is recorded in Redis (or given up on). */
  recorded(): Promise<void>;
}

/** Counts `throttle`'s failures in Redis too. */
export function shareAuthFailures(throttle: AuthThrottle, redis: GuardedRedis, options: FleetAuthFailuresOptions): SharedAuthFailures {
  const inFlight = new Set<Promise<void>>();
  const record = async (address: string | undefined): Promise<void> => {
    const group = addressGroup(address);
    try {
      const reply = await redis.evalScript(AUTH_FAILURE_SCRIPT, [authFailuresEntry(options.prefix, group)], [String(options.failuresPerMinute), String(MINUTE_MS)]);
      const waitMs = Number(reply);
      if (waitMs > 0) throttle.blockedElsewhere(address, waitMs);
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) options.onError?.(err);
    }
  };
  throttle.onFailure((address) => {
    const recording = record(address).finally(() => inFlight.delete(recording));
    inFlight.add(recording);
  });
  return {
    recorded: async () => {
      await Promise.all(inFlight);
    },
  };
}
