// Last-use times collected in memory on the request path and written to the store in batches, off the request path.
import type { LastUseWriter } from './key-store.js';

export class LastUsedBuffer {
  private pending = new Map<string, number>();
  private flushing: Promise<void> | null = null;

  constructor(private readonly writer: LastUseWriter) {}

  record(id: string, at: number): void {
    this.pending.set(id, at);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Writes what is pending; on failure the times go back into the buffer for the next flush, then it rethrows. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.writer.touchLastUsed([...batch].map(([id, at]) => ({ id, at })));
    } catch (err) {
      for (const [id, at] of batch) this.pending.set(id, Math.max(at, this.pending.get(id) ?? 0));
      throw err;
    }
  }
}
