// One token bucket: `capacity` tokens, refilled continuously at `capacity` per `windowMs`. Pure
// arithmetic on an explicit clock, so the limiter and its tests decide what "now" is.

export class TokenBucket {
  private level: number;
  private updatedAt: number;
  private perMs: number;

  constructor(
    private cap: number,
    private readonly windowMs: number,
    now: number,
  ) {
    this.level = cap;
    this.updatedAt = now;
    this.perMs = cap / windowMs;
  }

  get capacity(): number {
    return this.cap;
  }

  /** A key edited to a new limit keeps what it has used: the level is clamped, not reset. */
  resize(capacity: number, now: number): void {
    if (capacity === this.cap) return;
    this.refill(now);
    this.cap = capacity;
    this.perMs = capacity / this.windowMs;
    if (this.level > capacity) this.level = capacity;
  }

  /** Tokens available now (may be negative after a settle that cost more than was reserved). */
  available(now: number): number {
    this.refill(now);
    return this.level;
  }

  /** Milliseconds until `amount` tokens are available (0 when they are now). */
  msUntil(amount: number, now: number): number {
    const missing = amount - this.available(now);
    return missing <= 0 ? 0 : Math.ceil(missing / this.perMs);
  }

  /** Milliseconds until the bucket is full again. */
  msUntilFull(now: number): number {
    return this.msUntil(this.cap, now);
  }

  /** Unconditional: callers check `available` first; a negative amount gives tokens back. */
  take(amount: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.cap, this.level - amount);
  }

  /** Takes one token when a whole one is there; false (and nothing taken) when not. */
  takeOne(now: number): boolean {
    if (this.available(now) < 1) return false;
    this.level -= 1;
    return true;
  }

  isFull(now: number): boolean {
    return this.available(now) >= this.cap;
  }

  private refill(now: number): void {
    const elapsed = now - this.updatedAt;
    if (elapsed <= 0) return;
    this.updatedAt = now;
    if (this.level < this.cap) this.level = Math.min(this.cap, this.level + elapsed * this.perMs);
  }
}
