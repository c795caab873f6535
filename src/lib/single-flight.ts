// Callers asking for the same key at the same time share one call: the first starts it, the others get
// its promise. Once it settles the key is free again, so a failed call is tried afresh by the next caller.
export class SingleFlight<V> {
  private readonly pending = new Map<string, Promise<V>>();

  /** The call under way for `key`, if any. */
  running(key: string): Promise<V> | undefined {
    return this.pending.get(key);
  }

  run(key: string, start: () => Promise<V>): Promise<V> {
    let call = this.pending.get(key);
    if (call === undefined) {
      call = start().finally(() => this.pending.delete(key));
      this.pending.set(key, call);
    }
    return call;
  }

  /** Every call under way (for a close that waits for them). */
  inFlight(): Promise<V>[] {
    return [...this.pending.values()];
  }
}
