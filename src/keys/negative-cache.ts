// Public ids the store did not know, remembered for a while and bounded in number (oldest forgotten first).

export class NegativeCache {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  has(id: string): boolean {
    const until = this.until.get(id);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(id);
    return false;
  }

  add(id: string): void {
    this.until.delete(id);
    if (this.until.size >= this.maxEntries) {
      const oldest = this.until.keys().next().value;
      if (oldest !== undefined) this.until.delete(oldest);
    }
    this.until.set(id, this.now() + this.ttlMs);
  }

  delete(id: string): void {
    this.until.delete(id);
  }

  get size(): number {
    return this.until.size;
  }
}
