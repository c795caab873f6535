// The shared rate limiter: the same token buckets as MemoryRateLimiter, kept in Redis and updated
// by one atomic script per acquire and per settle, on the Redis server's clock.
import type { LimitDecision, LimitRequest, LimitScope, LimitStatus, LimitWindow, RateLimiter, Reservation } from '../limiter.js';
import type { RateLimits } from '../../../keys/rate-limits.js';
import type { ReservationData } from '../memory-limiter.js';
import { customerEntry, keyEntry, assertPrefix } from './keys.js';
import { ACQUIRE_SCRIPT, SETTLE_SCRIPT, type LuaScript } from './scripts.js';

/** What the limiter needs from a connection (GuardedRedis in production). */
export interface ScriptRunner {
  evalScript(script: LuaScript, keys: string[], args: string[]): Promise<unknown>;
}

export interface RedisRateLimiterOptions {
  /** Prepended to every key, e.g. 'mgw:rl:'; no braces (they are the hash tag). */
  prefix: string;
  /** Tests only: pins the bucket clock (milliseconds) instead of the server's TIME. */
  now?: () => number;
}

/** The same plain data as an in-process reservation, marked as Redis's own (FallbackLimiter routes by it). */
export class RedisReservation implements Reservation {
  constructor(readonly data: ReservationData) {}
}

/** The acquire script's reply, positions as documented on ACQUIRE_SCRIPT. */
type AcquireReply = [string, string, string, string, string, string, string, string, string, string, string];

export class RedisRateLimiter implements RateLimiter {
  private readonly prefix: string;
  private readonly now: (() => number) | undefined;

  constructor(
    private readonly redis: ScriptRunner,
    options: RedisRateLimiterOptions,
  ) {
    assertPrefix(options.prefix);
    this.prefix = options.prefix;
    this.now = options.now;
  }

  async acquire(r: LimitRequest): Promise<LimitDecision> {
    const reply = (await this.redis.evalScript(ACQUIRE_SCRIPT, this.entries(r.customerId, r.keyId), [
      this.pinnedNow(),
      String(r.tokens),
      ...limitArgs(r.keyLimits, r.customerLimits),
    ])) as AcquireReply;
    const status: LimitStatus = { requests: windowFrom(reply, 5), tokens: windowFrom(reply, 8) };
    if (reply[0] !== '1') return { allowed: false, scope: reply[1] as LimitScope, retryAfterMs: num(reply[2]), status };
    const reservation = new RedisReservation({
      keyId: r.keyId,
      keyTokens: num(reply[3]),
      customerId: r.customerId,
      customerTokens: num(reply[4]),
      keyLimits: r.keyLimits,
      customerLimits: r.customerLimits,
    });
    return { allowed: true, reservation, status };
  }

  async settle(reservation: Reservation, usedTokens: number): Promise<void> {
    if (!(reservation instanceof RedisReservation)) throw new TypeError('settle: not a reservation of this limiter');
    const r = reservation.data;
    // Only token buckets are settled (a request's requests token is spent for good): without a tpm
    // limit on the key or its customer the script would change nothing, so the round trip is skipped.
    if ((r.keyLimits.tpm ?? null) === null && (r.customerLimits?.tpm ?? null) === null) return;
    await this.redis.evalScript(SETTLE_SCRIPT, this.entries(r.customerId, r.keyId), [
      this.pinnedNow(),
      String(usedTokens),
      String(r.keyTokens),
      String(r.customerTokens),
      ...limitArgs(r.keyLimits, r.customerLimits),
    ]);
  }

  private entries(customerId: string, keyId: string): string[] {
    return [keyEntry(this.prefix, customerId, keyId), customerEntry(this.prefix, customerId)];
  }

  private pinnedNow(): string {
    return this.now === undefined ? '' : String(this.now());
  }
}

/** keyRpm, keyTpm, customerRpm, customerTpm as the scripts take them ('' = no limit). */
function limitArgs(key: RateLimits, customer: RateLimits | null): string[] {
  const arg = (limit: number | null | undefined) => (limit === null || limit === undefined ? '' : String(limit));
  return [arg(key.rpm), arg(key.tpm), arg(customer?.rpm), arg(customer?.tpm)];
}

/** Lua prints infinity as 'inf' (a zero limit never refills). */
function num(s: string): number {
  if (s === 'inf') return Infinity;
  return Number(s);
}

function windowFrom(reply: AcquireReply, at: number): LimitWindow | null {
  if (reply[at] === '') return null;
  return { limit: num(reply[at]), remaining: num(reply[at + 1]), resetMs: num(reply[at + 2]) };
}
