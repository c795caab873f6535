// The shared rate limiter: the same token buckets as MemoryRateLimiter, kept in Redis and updated
// by atomic scripts on the Redis server's clock: one per key for the acquires made in one turn of the
// event loop (decided in order), which also applies the settles of the key made since the last; the
// settles no acquire came for within SETTLE_DELAY_MS go alone. A busy key's script also leases a few
// requests to this instance (lease.ts), which decides the key's next ones without a round trip.
import type { LimitDecision, LimitRequest, LimitScope, LimitStatus, LimitWindow, RateLimiter, Reservation } from '../limiter.js';
import type { RateLimits } from '../../../keys/rate-limits.js';
import type { ReservationData } from '../memory-limiter.js';
import { customerEntry, keyEntry, assertPrefix } from '../../../stores/redis/keys.js';
import { ACQUIRE_REPLY, ACQUIRE_SCRIPT, SETTLE_SCRIPT } from './scripts.js';
import type { LuaScript, ScriptRunner } from '../../../stores/redis/lua-script.js';
import { busierBy, Lease, LEASE_DIVISOR, LEASE_TTL_MS, leaseWanted } from './lease.js';
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
export interface RedisRateLimiterOptions {
  /** Prepended to every key, e.g. 'mgw:rl:'; no braces (they are the hash tag). */
  prefix: string;
  /** Tests only: pins the bucket clock (milliseconds) instead of the server's TIME. */
  now?: () => number;
  /** Tests only: how long settles wait (SETTLE_DELAY_MS); Infinity leaves them to flushSettles(). */
  settleDelayMs?: number;
  /** The live instances (a lease is a share of a bucket's level over them); 1 when not given. */
  instances?: { readonly liveInstances: number };
  /** False: no leases, every acquire asks Redis (tests comparing the arithmetic step by step). */
  leases?: boolean;
  /** Tests only: the clock of a lease's life (milliseconds, monotonic); performance.now by default. */
  leaseClock?: () => number;
}

/** The same plain data as an in-process reservation, marked as Redis's own (FallbackLimiter routes by it). */
export class RedisReservation implements Reservation {
  constructor(readonly data: ReservationData) {}
}

/** What this instance keeps per key: its lease and how busy the key is. */
interface KeyState {
  readonly entries: [string, string];
  lease: Lease | null;
  /** The key's last script granted a lease: its acquires wait for the script in flight, which may bring the next. */
  leasing: boolean;
  /** How busy the key is on this instance: its acquires, the older counting less (busierBy). */
  busy: number;
  lastAcquireAt: number;
  lastScriptAt: number;
}

/** The acquire script's reply: ACQUIRE_REPLY values per acquire, positions as documented on ACQUIRE_SCRIPT. */
type AcquireReply = string[];

export class RedisRateLimiter implements RateLimiter {
  private readonly prefix: string;
  private readonly now: (() => number) | undefined;
  private readonly pending: PendingSettles;
  /** The acquires of one turn, one script per key. */
  private readonly acquires: TurnBatcher<KeyState, LimitRequest, LimitDecision>;
  /** Settles and leases sent alone and not answered yet (flushSettles waits for them). */
  private readonly sending = new Set<Promise<unknown>>();
  private readonly keys = new Map<string, KeyState>();
  private readonly useLeases: boolean;
  private readonly instances: { readonly liveInstances: number };
  private readonly leaseClock: () => number;
  private sweepTimer: NodeJS.Timeout | null = null;

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
    this.acquires = new TurnBatcher({
      maxPerSend: MAX_ACQUIRES_PER_SCRIPT,
      send: (_state, requests) => this.sendAcquires(requests),
      // A leased key's acquires wait for its script in flight, which brings the next lease; the others go
      // at once, as each instance's acquires of a small limit race fairly for the last requests.
      waitsForAnswer: (state) => state.leasing,
    });
    this.useLeases = options.leases ?? true;
    this.instances = options.instances ?? { liveInstances: 1 };
    this.leaseClock = options.leaseClock ?? (() => performance.now());
  }

  /**
   * From this instance's lease of the key when it covers the request (no round trip), else decided with
   * the other acquires of the key made in the same turn, in order, in one script.
   */
  acquire(r: LimitRequest): LimitDecision | Promise<LimitDecision> {
    const state = this.stateOf(r.customerId, r.keyId);
    const now = this.leaseClock();
    state.busy = busierBy(state.busy, now - state.lastAcquireAt);
    state.lastAcquireAt = now;
    const lease = state.lease;
    if (lease !== null && lease.covers(r, now)) return fromLease(lease, r);
    return this.acquires.add(r.keyId, state, r);
  }

  private async sendAcquires(requests: LimitRequest[]): Promise<LimitDecision[]> {
    // The key's state now (the batch's may have been swept since, if the key was quiet before).
    const state = this.stateOf(requests[0].customerId, requests[0].keyId);
    const entries = state.entries;
    const now = this.leaseClock();
    // Acquires that waited for the key's previous script may fit the lease it brought.
    const decisions: LimitDecision[] = [];
    while (decisions.length < requests.length && state.lease !== null && state.lease.covers(requests[decisions.length], now)) {
      decisions.push(fromLease(state.lease, requests[decisions.length]));
    }
    if (decisions.length === requests.length) return decisions;
    const asked = decisions.length === 0 ? requests : requests.slice(decisions.length);
    const last = asked[asked.length - 1];
    const want = this.useLeases ? leaseWanted(state.busy, now - state.lastScriptAt) : 0;
    const args = [this.pinnedNow(), String(asked.length), String(want), String(last.tokens), String(LEASE_DIVISOR * Math.max(1, this.instances.liveInstances))];
    // The lease held goes back in this script, before its decisions; the script may grant the next.
    for (const arg of giveBackArgs(state.lease)) args.push(arg);
    state.lease = null;
    state.lastScriptAt = now;
    for (const r of asked) args.push(String(r.tokens), ...limitArgs(r.keyLimits, r.customerLimits));
    // The settles carried are lost with the call if it fails, as one sent alone would be.
    for (const arg of this.pending.take(entries[0])) args.push(arg);
    const reply = (await this.redis.evalScript(ACQUIRE_SCRIPT, entries, args)) as AcquireReply;
    for (let i = 0; i < asked.length; i++) decisions.push(decisionFrom(reply, i * ACQUIRE_REPLY, asked[i]));
    this.keepLease(this.stateOf(last.customerId, last.keyId), last, reply, asked.length * ACQUIRE_REPLY, now);
    return decisions;
  }

  /**
   * The lease a script granted, if any, becomes the key's. Its life counts from before the script was sent
   * (`sentAt`), so it ends within a lease life of the grant, as Redis counts it (bucket-lua.ts).
   */
  private keepLease(state: KeyState, last: LimitRequest, reply: AcquireReply, at: number, sentAt: number): void {
    const leased = Number(reply[at]);
    state.leasing = leased >= 1;
    if (!state.leasing) return;
    const shared: LimitStatus = { requests: windowFrom(reply, at + 2), tokens: windowFrom(reply, at + 5) };
    // Another script of the key's in the same turn (a batch over MAX_ACQUIRES_PER_SCRIPT) granted one too.
    if (state.lease !== null) this.giveBack(state.entries, state.lease);
    state.lease = new Lease(last.keyLimits, last.customerLimits, reply[at + 1], leased, leased * last.tokens, shared, sentAt + LEASE_TTL_MS);
  }

  /** Queues the settle for the next acquire of its key, or for the delay's end (nothing is awaited). */
  settle(reservation: Reservation, usedTokens: number): void {
    if (!(reservation instanceof RedisReservation)) throw new TypeError('settle: not a reservation of this limiter');
    const r = reservation.data;
    // Only token buckets are settled (a request's requests token is spent for good): without a tpm
    // limit on the key or its customer the script would change nothing, so nothing is queued.
    if ((r.keyLimits.tpm ?? null) === null && (r.customerLimits?.tpm ?? null) === null) return;
    // While the key holds a lease taken under the same limits, the settle stays in it (Lease.absorb).
    const state = this.keys.get(r.keyId);
    const lease = state?.lease ?? null;
    if (lease !== null && lease.takenUnder(r.keyLimits, r.customerLimits) && sameReserved(r)) {
      if (lease.absorb(Math.max(r.keyTokens, r.customerTokens), usedTokens, this.leaseClock())) return;
    }
    this.pending.add(state?.entries ?? this.entries(r.customerId, r.keyId), [
      String(usedTokens),
      String(r.keyTokens),
      String(r.customerTokens),
      ...limitArgs(r.keyLimits, r.customerLimits),
    ]);
  }

  /** Sends every queued settle and gives back every lease now, and waits for them (a graceful stop; tests). */
  async flushSettles(): Promise<void> {
    if (this.sweepTimer !== null) clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
    for (const state of this.keys.values()) {
      if (state.lease !== null) this.giveBack(state.entries, state.lease);
    }
    this.keys.clear();
    this.pending.flush();
    await Promise.all([...this.sending]);
  }

  /** By key id alone: a key belongs to one customer. */
  private stateOf(customerId: string, keyId: string): KeyState {
    let state = this.keys.get(keyId);
    if (state === undefined) {
      state = { entries: this.entries(customerId, keyId), lease: null, leasing: false, busy: 0, lastAcquireAt: -Infinity, lastScriptAt: -Infinity };
      this.keys.set(keyId, state);
      this.armSweep();
    }
    return state;
  }

  /** A lease ended before another script of its key: the acquire script with no acquire, carrying the key's settles too. */
  private giveBack(entries: readonly [string, string], lease: Lease): void {
    const back = giveBackArgs(lease);
    const args = [this.pinnedNow(), '0', '0', '0', '1', ...back];
    for (const arg of this.pending.take(entries[0])) args.push(arg);
    this.sendAlone(ACQUIRE_SCRIPT, entries, args);
  }

  /** Gives back the leases past their life and forgets the keys quiet since (a timer while any key is kept). */
  private armSweep(): void {
    if (this.sweepTimer !== null) return;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = null;
      const now = this.leaseClock();
      for (const [name, state] of this.keys) {
        if (state.lease !== null && now >= state.lease.expiresAt) {
          this.giveBack(state.entries, state.lease);
          state.lease = null;
          state.leasing = false;
        }
        if (state.lease === null && now - state.lastScriptAt >= LEASE_TTL_MS) this.keys.delete(name);
      }
      if (this.keys.size > 0) this.armSweep();
    }, LEASE_TTL_MS);
    this.sweepTimer.unref();
  }

  private sendSettles(batch: SettleBatch): void {
    this.sendAlone(SETTLE_SCRIPT, batch.entries, [this.pinnedNow(), ...batch.args]);
  }

  /**
   * A script no request waits for (settles, a lease given back), tracked until answered for flushSettles.
   * One lost with Redis only leaves the buckets as they were: they refill anyway, and a lease's grant stops
   * counting two generations on.
   */
  private sendAlone(script: LuaScript, entries: readonly [string, string], args: string[]): void {
    const sent = this.redis
      .evalScript(script, [...entries], args)
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

const NOTHING_BACK: readonly string[] = ['', '0', '0', '0', '0', '', '', '', ''];

/**
 * Ends the lease; its part of the acquire script's head (GIVE_BACK_ARGS values): its generation, what it
 * was granted and what it returns, and the limits it was taken under.
 */
function giveBackArgs(lease: Lease | null): readonly string[] {
  if (lease === null) return NOTHING_BACK;
  const back = lease.retire();
  return [
    lease.generation,
    String(lease.grantedRequests),
    String(lease.grantedTokens),
    String(back.requests),
    String(back.tokens),
    ...limitArgs(lease.keyLimits, lease.customerLimits),
  ];
}

function fromLease(lease: Lease, r: LimitRequest): LimitDecision {
  const { keyTokens, customerTokens } = lease.take(r);
  const data: ReservationData = { keyId: r.keyId, keyTokens, customerId: r.customerId, customerTokens, keyLimits: r.keyLimits, customerLimits: r.customerLimits };
  return { allowed: true, reservation: new RedisReservation(data), status: lease.status() };
}

/** Whether the key's and the customer's token buckets reserved the same (or only one has one): a lease moves both alike. */
function sameReserved(r: ReservationData): boolean {
  return r.keyTokens === r.customerTokens || r.keyLimits.tpm === null || (r.customerLimits?.tpm ?? null) === null;
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
