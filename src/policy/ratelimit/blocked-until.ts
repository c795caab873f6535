// What this process has learnt from the fleet's shared counts: "this subject is refused until then".
// Consulted before anything else, so a subject the fleet has refused is refused here without a round
// trip. Bounded: the entries that end first are the first forgotten.

const DEFAULT_MAX_ENTRIES = 50_000;

export class BlockedUntil {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries: number = DEFAULT_MAX_ENTRIES,
  ) {}

  /** Milliseconds `subject` must still wait (0: nothing known against it). */
  waitFor(subject: string): number {
    if (this.until.size === 0) return 0;
    const end = this.until.get(subject);
    if (end === undefined) return 0;
    const wait = end - this.now();
    if (wait > 0) return Math.ceil(wait);
    this.until.delete(subject);
    return 0;
  }

  block(subject: string, waitMs: number): void {
    if (waitMs <= 0) return;
    const end = this.now() + waitMs;
    if ((this.until.get(subject) ?? 0) >= end) return;
    this.until.set(subject, end);
    if (this.until.size > this.maxEntries) this.sweep();
  }

  get size(): number {
    return this.until.size;
  }

  /** Drops what has ended; if still too many, those ending first. */
  sweep(): void {
    const now = this.now();
    for (const [subject, end] of this.until) if (end <= now) this.until.delete(subject);
    if (this.until.size <= this.maxEntries) return;
    const byEnd = [...this.until].sort((a, b) => a[1] - b[1]);
    for (const [subject] of byEnd.slice(0, this.until.size - this.maxEntries)) this.until.delete(subject);
  }
}
