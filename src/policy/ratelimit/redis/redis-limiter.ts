// The shared rate limiter: the same token buckets as MemoryRateLimiter, kept in Redis and updated
// by atomic scripts on the Redis server's clock: one per key for the acquires made in one turn of the
// event loop (decided in order), which also applies the settles of the key made since the last; the
// settles no acquire came for within SETTLE_DELAY_MS go alone.
import type { LimitDecision, LimitRequest, LimitScope, LimitStatus, LimitWindow, RateLimiter, Reservation } from '../limiter.js';
import type { RateLimits } from '../../../keys/rate-limits.js';
import type { ReservationData } from '../memory-limiter.js';
import { customerEntry, keyEntry, assertPrefix } from './keys.js';
import { ACQUIRE_REPLY, ACQUIRE_SCRIPT, SETTLE_SCRIPT, type LuaScript } from './scripts.js';
import { TurnBatcher } from './turn-batcher.js';
import { PendingSettles, type SettleBatch } from './pending-settles.js';

/**
 * How long a settle waits for the next acquire of its key before it goes alone: what another
 * instance may not see yet of this one's token use (a request's token is taken at its acquire, so
 * requests per minute are never late).
 */
export const SETTLE_DELAY_MS = 20;
/** Settles of one key that go at once however soon (a script's arguments stay few). */
const MAX_SETTLES_PER_SCRIPT = 32;
/** Acquires of one key in one script at most (more in one turn go in several). */
const MAX_ACQUIRES_PER_SCRIPT = 64;

/** What the limiter needs from a connection (GuardedRedis in production). */
export interface ScriptRunner {
  evalScript(script: LuaScript, keys: string[], args: string[]): Promise<unknown>;
}

export interface RedisRateLimiterOptions {
  /** Prepended to every key, e.g. 'mgw:rl:'; no braces (they are the hash tag). */
  prefix: string;
  /** Tests only: pins the bucket clock (milliseconds) instead of the server's TIME. */
  now?: () => number;
  /** Tests only: how long settles wait (SETTLE_DELAY_MS); Infinity leaves them to flushSettles(). */
  settleDelayMs?: number;
}

/** The same plain data as an in-process reservation, marked as Redis's own (FallbackLimiter routes by it). */
export class RedisReservation implements Reservation {
  constructor(readonly data: ReservationData) {}
}

/** The acquire script's reply: ACQUIRE_REPLY values per acquire, positions as documented on ACQUIRE_SCRIPT. */
type AcquireReply = string[];

export class RedisRateLimiter implements RateLimiter {
  private readonly prefix: string;
  private readonly now: (() => number) | undefined;
  private readonly pending: PendingSettles;
  /** The acquires of one turn, one script per key. */
  private readonly acquires: TurnBatcher<[string, string], LimitRequest, LimitDecision>;
  /** Settles sent alone and not answered yet (flushSettles waits for them). */
  private readonly sending = new Set<Promise<unknown>>();

  constructor(
    private readonly redis: ScriptRunner,
    options: RedisRateLimiterOptions,
  ) {
    assertPrefix(options.prefix);
    this.prefix = options.prefix;
    this.now = options.now;
    this.pending = new PendingSettles({
      delayMs: options.settleDelayMs ?? SETTLE_DELAY_MS,
      maxPerKey: MAX_SETTLES_PER_SCRIPT,
      send: (batch) => this.sendSettles(batch),
    });
    this.acquires = new TurnBatcher({ maxPerSend: MAX_ACQUIRES_PER_SCRIPT, send: (entries, requests) => this.sendAcquires(entries, requests) });
  }

  /** Decided with the other acquires of the key made in the same turn, in order, in one script. */
  acquire(r: LimitRequest): Promise<LimitDecision> {
    const entries = this.entries(r.customerId, r.keyId);
    return this.acquires.add(entries[0], entries, r);
  }

  private async sendAcquires(entries: [string, string], requests: LimitRequest[]): Promise<LimitDecision[]> {
    const args = [this.pinnedNow(), String(requests.length)];
    for (const r of requests) args.push(String(r.tokens), ...limitArgs(r.keyLimits, r.customerLimits));
    // The settles carried are lost with the call if it fails, as one sent alone would be.
    for (const arg of this.pending.take(entries[0])) args.push(arg);
    const reply = (await this.redis.evalScript(ACQUIRE_SCRIPT, entries, args)) as AcquireReply;
    return requests.map((r, i) => decisionFrom(reply, i * ACQUIRE_REPLY, r));
  }

  /** Queues the settle for the next acquire of its key, or for the delay's end (nothing is awaited). */
  settle(reservation: Reservation, usedTokens: number): void {
    if (!(reservation instanceof RedisReservation)) throw new TypeError('settle: not a reservation of this limiter');
    const r = reservation.data;
    // Only token buckets are settled (a request's requests token is spent for good): without a tpm
    // limit on the key or its customer the script would change nothing, so nothing is queued.
    if ((r.keyLimits.tpm ?? null) === null && (r.customerLimits?.tpm ?? null) === null) return;
    this.pending.add(this.entries(r.customerId, r.keyId), [
      String(usedTokens),
      String(r.keyTokens),
      String(r.customerTokens),
      ...limitArgs(r.keyLimits, r.customerLimits),
    ]);
  }

  /** Sends every queued settle now and waits for them (a graceful stop; tests). */
  async flushSettles(): Promise<void> {
    this.pending.flush();
    await Promise.all([...this.sending]);
  }

  private sendSettles(batch: SettleBatch): void {
    // A settle lost with Redis only leaves the reservation as it was: the bucket refills anyway.
    const sent = this.redis
      .evalScript(SETTLE_SCRIPT, [...batch.entries], [this.pinnedNow(), ...batch.args])
      .catch(() => {})
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  private entries(customerId: string, keyId: string): [string, string] {
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

function decisionFrom(reply: AcquireReply, at: number, r: LimitRequest): LimitDecision {
  const status: LimitStatus = { requests: windowFrom(reply, at + 5), tokens: windowFrom(reply, at + 8) };
  if (reply[at] !== '1') return { allowed: false, scope: reply[at + 1] as LimitScope, retryAfterMs: num(reply[at + 2]), status };
  const reservation = new RedisReservation({
    keyId: r.keyId,
    keyTokens: num(reply[at + 3]),
    customerId: r.customerId,
    customerTokens: num(reply[at + 4]),
    keyLimits: r.keyLimits,
    customerLimits: r.customerLimits,
  });
  return { allowed: true, reservation, status };
}

function windowFrom(reply: AcquireReply, at: number): LimitWindow | null {
  if (reply[at] === '') return null;
  return { limit: num(reply[at]), remaining: num(reply[at + 1]), resetMs: num(reply[at + 2]) };
}
