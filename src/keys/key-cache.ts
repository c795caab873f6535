// The request-path authenticator: every key in memory, kept current by polling the store's change version.
// A hit costs one SHA-256 and a map lookup; the store is touched only for ids not seen yet.
import { withDeadline } from '../lib/deadline.js';
import { SingleFlight } from '../lib/single-flight.js';
import { TokenBucket } from '../lib/token-bucket.js';
import { parseKey, secretMatches, type ParsedKey } from './key-format.js';
import type { KeyChange, KeyStore, LastUseWriter } from './key-store.js';
import { LastUsedBuffer } from './last-used.js';
import { NegativeCache } from './negative-cache.js';
import { principalOf, type CustomerDefaults, type Principal } from './principal.js';

export type { Principal } from './principal.js';
/** `unavailable`: the id is not in memory and the store did not answer, so the key could not be verified. */
export type AuthFailure = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired' | 'unavailable';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: AuthFailure };

export interface KeyCacheOptions {
  /** How often changes (new, revoked, edited keys) are read from the store. Default 1000. */
  refreshMs?: number;
  /** How often last-use times are written. Default 5000. */
  lastUsedFlushMs?: number;
  /**
   * Where last-use times are written; the store by default. The gateway gives its usage write thread:
   * a write on the event loop's own SQLite connection waits (busy timeout) whenever that thread holds
   * the database's write lock, and every request waits with it.
   */
  lastUsedWriter?: LastUseWriter;
  now?: () => number;
  /**
   * A customer's limits when it has none stored (GATEWAY_CUSTOMER_LIMITS); none by default. Applied
   * when a key is loaded, so each principal carries its customer's limits in force.
   */
  customerDefaults?: CustomerDefaults;
  /** Store lookups allowed per second for ids not in memory. Default 50. */
  missLookupsPerSecond?: number;
  /** How long an id the store did not know is answered from memory. Default 60 s. */
  negativeTtlMs?: number;
  /** Most unknown ids remembered at once. Default 10,000. */
  negativeMax?: number;
  /**
   * How long a store read (a refresh, a lookup) may take before it counts as failed, whatever the store's own
   * timeouts: a key nobody could verify is answered at once rather than held. Default 10 s.
   */
  storeTimeoutMs?: number;
  /** Background failures (refresh, miss lookup, last-used flush); the cache keeps serving what it has. */
  onError?: (err: unknown, during: 'refresh' | 'lookup' | 'last-used') => void;
}

interface Entry {
  principal: Principal;
  /** The one accepted answer for this key version, shared by every request. */
  accepted: AuthResult;
  secretHash: Buffer;
  revoked: boolean;
  expiresAtMs: number | null;
  version: number;
}

export interface KeyCacheStats {
  hits: number;
  /** Hits answered from the verified-key memo, without hashing the secret again. */
  verifiedHits: number;
  misses: number;
  storeLookups: number;
  lookupsRefused: number;
  refreshErrors: number;
}

/** Verified keys remembered at once; the memo starts over beyond it (memory stays bounded). */
const VERIFIED_MAX = 10_000;

const MISSING: AuthResult = Object.freeze({ ok: false, reason: 'missing' });
const MALFORMED: AuthResult = Object.freeze({ ok: false, reason: 'malformed' });
const UNKNOWN: AuthResult = Object.freeze({ ok: false, reason: 'unknown' });
const REVOKED: AuthResult = Object.freeze({ ok: false, reason: 'revoked' });
const EXPIRED: AuthResult = Object.freeze({ ok: false, reason: 'expired' });
const UNAVAILABLE: AuthResult = Object.freeze({ ok: false, reason: 'unavailable' });

/** What asking the store about an id came to: `failed` when it did not answer in time. */
export type LookupOutcome = 'answered' | 'failed';
const ANSWERED: Promise<LookupOutcome> = Promise.resolve('answered');

function entryOf(change: KeyChange, defaults: CustomerDefaults | undefined): Entry {
  const { record } = change;
  const principal = principalOf(record, defaults);
  return {
    principal,
    accepted: Object.freeze({ ok: true, principal }),
    secretHash: change.secretHash,
    revoked: record.status === 'revoked',
    expiresAtMs: record.expiresAt === null ? null : Date.parse(record.expiresAt),
    version: change.version,
  };
}

export class KeyCache {
  readonly stats: KeyCacheStats = { hits: 0, verifiedHits: 0, misses: 0, storeLookups: 0, lookupsRefused: 0, refreshErrors: 0 };
  private readonly entries = new Map<string, Entry>();
  /**
   * Keys whose secret already matched, by their full text, with the entry they matched. A Map lookup
   * finds only an exact key (a guessed secret hashes to another slot and takes the hashing path), so
   * this skips a SHA-256 per request without a timing oracle; a changed entry invalidates it.
   */
  private readonly verified = new Map<string, { publicId: string; entry: Entry }>();
  private readonly negative: NegativeCache;
  /** Caps how often unknown ids may reach the store, so a flood of random keys costs memory only. */
  private readonly budget: TokenBucket;
  private readonly lookups = new SingleFlight<LookupOutcome>();
  private readonly lastUsed: LastUsedBuffer;
  private readonly now: () => number;
  private readonly refreshMs: number;
  private readonly lastUsedFlushMs: number;
  private readonly onError: NonNullable<KeyCacheOptions['onError']>;
  private readonly customerDefaults: CustomerDefaults | undefined;
  private readonly storeTimeoutMs: number;
  private version = 0;
  private refreshing: Promise<void> | null = null;
  /** The read that follows the one under way, for callers that came during it. */
  private followUp: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly store: KeyStore,
    opts: KeyCacheOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.refreshMs = opts.refreshMs ?? 1000;
    this.lastUsedFlushMs = opts.lastUsedFlushMs ?? 5000;
    this.onError = opts.onError ?? (() => {});
    this.customerDefaults = opts.customerDefaults;
    this.storeTimeoutMs = opts.storeTimeoutMs ?? 10_000;
    this.negative = new NegativeCache(opts.negativeTtlMs ?? 60_000, opts.negativeMax ?? 10_000, this.now);
    this.budget = new TokenBucket(opts.missLookupsPerSecond ?? 50, 1000, this.now());
    this.lastUsed = new LastUsedBuffer(opts.lastUsedWriter ?? store);
  }

  /** Loads every key, then keeps polling for changes. Rejects when the store cannot be read. */
  async start(): Promise<void> {
    if (this.timers.length > 0) return;
    await this.refresh();
    this.timers.push(
      setInterval(() => void this.refresh().catch((err) => this.report(err, 'refresh')), this.refreshMs).unref(),
      setInterval(() => void this.flushLastUsed(), this.lastUsedFlushMs).unref(),
    );
  }

  /** Memory only: an id not loaded yet is 'unknown' here (use authenticateAsync to ask the store). */
  authenticate(raw: string | undefined): AuthResult {
    const checked = this.check(raw);
    return 'ok' in checked ? checked : UNKNOWN;
  }

  /**
   * The hit path answers at once, without a promise; only an id not in memory waits for one (bounded)
   * store lookup. A lookup the store did not answer is `unavailable`, never `unknown`: the key may be valid.
   */
  authenticateAsync(raw: string | undefined): AuthResult | Promise<AuthResult> {
    const checked = this.check(raw);
    if ('ok' in checked) return checked;
    return this.lookupMiss(checked.publicId).then((outcome) => {
      const entry = this.entries.get(checked.publicId);
      if (entry) return this.verdict(entry, checked, raw!);
      return outcome === 'failed' ? UNAVAILABLE : UNKNOWN;
    });
  }

  /**
   * Asks the store once for an id not in memory (a key created since the last refresh). Concurrent asks for
   * one id share a lookup; ids the store did not know are remembered; a rate budget caps lookups overall.
   */
  lookupMiss(publicId: string): Promise<LookupOutcome> {
    if (this.entries.has(publicId) || this.negative.has(publicId)) return ANSWERED;
    const running = this.lookups.running(publicId);
    if (running) return running;
    if (!this.budget.takeOne(this.now())) {
      this.stats.lookupsRefused++;
      return ANSWERED;
    }
    this.stats.storeLookups++;
    return this.lookups.run(publicId, () =>
      withDeadline(this.store.findByPublicId(publicId), this.storeTimeoutMs, 'key lookup').then(
        (change): LookupOutcome => {
          if (change) this.apply(change);
          else this.negative.add(publicId);
          return 'answered';
        },
        (err: unknown): LookupOutcome => {
          this.report(err, 'lookup');
          return 'failed';
        },
      ),
    );
  }

  /**
   * Reads the changes since the last refresh. A call while a read is under way gets one more read after
   * it: the read under way may have begun before the change the caller heard of (another instance's
   * notification), and sharing it would leave a revoked key valid here until the next poll. Callers
   * during that wait share the one follow-up.
   */
  refresh(): Promise<void> {
    if (this.refreshing === null) {
      this.refreshing = this.readChanges().finally(() => {
        this.refreshing = null;
      });
      return this.refreshing;
    }
    this.followUp ??= this.refreshing.then(noop, noop).then(() => {
      this.followUp = null;
      return this.refresh();
    });
    return this.followUp;
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await Promise.allSettled([this.refreshing, this.followUp, ...this.lookups.inFlight()]);
    await this.flushLastUsed();
  }

  private check(raw: string | undefined): AuthResult | ParsedKey {
    if (raw === undefined || raw === '') return MISSING;
    const memo = this.verified.get(raw);
    if (memo !== undefined && this.entries.get(memo.publicId) === memo.entry) {
      this.stats.hits++;
      this.stats.verifiedHits++;
      return this.standing(memo.entry, memo.publicId);
    }
    const parsed = parseKey(raw);
    if (parsed === null) return MALFORMED;
    const entry = this.entries.get(parsed.publicId);
    if (entry === undefined) {
      this.stats.misses++;
      return parsed;
    }
    this.stats.hits++;
    return this.verdict(entry, parsed, raw);
  }

  /** The secret is compared first, so a guessed id never learns whether its key is revoked or expired. */
  private verdict(entry: Entry, key: ParsedKey, raw: string): AuthResult {
    if (!secretMatches(key.secret, entry.secretHash)) return UNKNOWN;
    if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
    this.verified.set(raw, { publicId: key.publicId, entry });
    return this.standing(entry, key.publicId);
  }

  /** After the secret matched: revoked, expired, or accepted (and its use recorded). */
  private standing(entry: Entry, publicId: string): AuthResult {
    if (entry.revoked) return REVOKED;
    const now = this.now();
    if (entry.expiresAtMs !== null && now >= entry.expiresAtMs) return EXPIRED;
    this.lastUsed.record(publicId, now);
    return entry.accepted;
  }

  private async readChanges(): Promise<void> {
    const { rows, maxVersion } = await withDeadline(this.store.changesSince(this.version), this.storeTimeoutMs, 'key refresh');
    for (const change of rows) this.apply(change);
    this.version = maxVersion;
  }

  /** A lookup may bring a row the refresh has not reached yet; never let an older version replace a newer. */
  private apply(change: KeyChange): void {
    const id = change.record.id;
    const current = this.entries.get(id);
    if (current && current.version >= change.version) return;
    this.entries.set(id, entryOf(change, this.customerDefaults));
    this.negative.delete(id);
  }

  private flushLastUsed(): Promise<void> {
    return this.lastUsed.flush().catch((err) => this.report(err, 'last-used'));
  }

  private report(err: unknown, during: 'refresh' | 'lookup' | 'last-used'): void {
    if (during === 'refresh') this.stats.refreshErrors++;
    try {
      this.onError(err, during);
    } catch {
      // a failing logger must not break the cache
    }
  }
}

function noop(): void {}
