// Throttles failed authentications per client address: each failure takes a token from the
// address's bucket; an address whose bucket is empty is refused before its key is even looked at,
// so guessing keys cannot drain the key store's shared lookup budget. IPv6 clients are grouped by
// /64, the block one subscriber usually holds.
// With a fleet (Redis), failures are also counted there by a listener (src/policy/ratelimit/redis/fleet-auth-failures.ts),
// and what the fleet answers, "this address must wait", is kept here, so the decision never waits for Redis.
import { clipText, unshared } from '../../lib/json/clip-text.js';
import { BlockedUntil } from './blocked-until.js';
import { TokenBucket } from '../../lib/token-bucket.js';

const MINUTE_MS = 60_000;
const SWEEP_EVERY = 1024;
const MAX_ADDRESS_CHARS = 100;

export class AuthThrottle {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly blockedByFleet: BlockedUntil;
  private readonly failureListeners: Array<(address: string | undefined) => void> = [];
  private failures = 0;

  /**
   * `share`: told of every failure seen here, so other processes serving the same port can count it
   * too (serve --workers: src/policy/ratelimit/cluster-limits-channel.ts); theirs come back through failedElsewhere.
   */
  constructor(
    private readonly failuresPerMinute: number,
    private readonly now: () => number = () => performance.now(),
    private readonly share: ((address: string | undefined) => void) | null = null,
  ) {
    this.blockedByFleet = new BlockedUntil(now);
  }

  /** Milliseconds this address must wait before it may try again (0: it may go on). */
  blockedFor(address: string | undefined): number {
    if (this.size === 0) return 0;
    const group = addressGroup(address);
    const bucket = this.buckets.get(group);
    return Math.max(bucket === undefined ? 0 : bucket.msUntil(1, this.now()), this.blockedByFleet.waitFor(group));
  }

  failed(address: string | undefined): void {
    this.count(address);
    this.share?.(address);
    for (const listener of this.failureListeners) listener(address);
  }

  /** Also tells `listener` of every failure seen by this process (not those passed on by failedElsewhere). */
  onFailure(listener: (address: string | undefined) => void): void {
    this.failureListeners.push(listener);
  }

  /** The fleet's count says this address must wait `waitMs`: refused here too, without asking again. */
  blockedElsewhere(address: string | undefined, waitMs: number): void {
    this.blockedByFleet.block(unshared(addressGroup(address)), waitMs);
  }

  /** A failure another process of the same gateway saw. */
  failedElsewhere(address: string | undefined): void {
    this.count(address);
  }

  private count(address: string | undefined): void {
    const now = this.now();
    if (++this.failures % SWEEP_EVERY === 0) this.sweep(now);
    const group = addressGroup(address);
    let bucket = this.buckets.get(group);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.failuresPerMinute, MINUTE_MS, now);
      // The address may be a piece of a longer X-Forwarded-For value: keep only its own characters.
      this.buckets.set(unshared(group), bucket);
    }
    bucket.takeOne(now);
  }

  /** Addresses with anything against them (0: nothing failed recently, no address to work out). */
  get size(): number {
    return this.buckets.size + this.blockedByFleet.size;
  }

  sweep(now: number = this.now()): void {
    for (const [group, bucket] of this.buckets) if (bucket.isFull(now)) this.buckets.delete(group);
    this.blockedByFleet.sweep();
  }
}

/** IPv4 (also IPv4-mapped IPv6) as is; other IPv6 addresses by their first four groups. */
export function addressGroup(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  // No address is this long (45 characters and a zone): a header's garbage, which must not be a long key.
  if (address.length > MAX_ADDRESS_CHARS) return clipText(address, MAX_ADDRESS_CHARS);
  if (address.indexOf(':') === -1) return address;
  if (address.startsWith('::ffff:') && address.indexOf('.') !== -1) return address.slice(7);
  return expandIpv6(address).slice(0, 4).join(':');
}

function expandIpv6(address: string): string[] {
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  const gap = bare.indexOf('::');
  if (gap === -1) return bare.split(':');
  const head = gap === 0 ? [] : bare.slice(0, gap).split(':');
  const tail = gap + 2 >= bare.length ? [] : bare.slice(gap + 2).split(':');
  const zeros = new Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0');
  return [...head, ...zeros, ...tail];
}
