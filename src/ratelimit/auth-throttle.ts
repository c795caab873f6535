// Throttles failed authentications per client address: each failure takes a token from the
// address's bucket; an address whose bucket is empty is refused before its key is even looked at,
// so guessing keys cannot drain the key store's shared lookup budget. IPv6 clients are grouped by
// /64, the block one subscriber usually holds.
import { clipText, unshared } from '../json/clip-text.js';
import { TokenBucket } from './token-bucket.js';

const MINUTE_MS = 60_000;
const SWEEP_EVERY = 1024;
const MAX_ADDRESS_CHARS = 100;

export class AuthThrottle {
  private readonly buckets = new Map<string, TokenBucket>();
  private failures = 0;

  /**
   * `share`: told of every failure seen here, so other processes serving the same port can count it
   * too (serve --workers: src/cluster/limits-channel.ts); theirs come back through failedElsewhere.
   */
  constructor(
    private readonly failuresPerMinute: number,
    private readonly now: () => number = () => performance.now(),
    private readonly share: ((address: string | undefined) => void) | null = null,
  ) {}

  /** Milliseconds this address must wait before it may try again (0: it may go on). */
  blockedFor(address: string | undefined): number {
    if (this.buckets.size === 0) return 0;
    const bucket = this.buckets.get(addressGroup(address));
    return bucket === undefined ? 0 : bucket.msUntil(1, this.now());
  }

  failed(address: string | undefined): void {
    this.count(address);
    this.share?.(address);
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

  get size(): number {
    return this.buckets.size;
  }

  sweep(now: number = this.now()): void {
    for (const [group, bucket] of this.buckets) if (bucket.isFull(now)) this.buckets.delete(group);
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
