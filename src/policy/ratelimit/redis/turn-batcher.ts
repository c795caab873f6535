// Calls made in one turn of the event loop, gathered per key and sent together at its end; for a key the
// caller says should (waitsForAnswer), while its send is unanswered its next calls wait for the answer and
// then go together. The Redis client writes what it is given from a setImmediate anyway, so a lone call
// waits no longer than it would alone; under load the acquires of a busy key cost one script, one write
// and one reply per round trip instead of one each (the write and read system calls were the largest part
// of a limited request's cost in profiles), and the answer they waited for may bring a lease that decides
// them with no script at all.

interface Waiting<Item, Result> {
  readonly item: Item;
  readonly resolve: (result: Result) => void;
  readonly reject: (err: unknown) => void;
}

interface Batch<Context, Item, Result> {
  readonly context: Context;
  readonly waiting: Array<Waiting<Item, Result>>;
}

export interface TurnBatcherOptions<Context, Item, Result> {
  /** A larger batch goes in several sends (keeps a script's arguments few). */
  maxPerSend: number;
  /** One result per item, in order; a rejection rejects every item of the send. */
  send: (context: Context, items: Item[]) => Promise<Result[]>;
  /** Whether the key's calls wait for its unanswered send (asked when they would go); never, if not given. */
  waitsForAnswer?: (context: Context) => boolean;
}

export class TurnBatcher<Context, Item, Result> {
  /** Calls not sent yet, per key; insertion order is the order of sending. */
  private readonly batches = new Map<string, Batch<Context, Item, Result>>();
  private scheduled = false;
  /** Sends unanswered, per key. */
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly options: TurnBatcherOptions<Context, Item, Result>) {}

  /** `context` is the key's (the first add of a turn gives it); items of one key go in the order added. */
  add(key: string, context: Context, item: Item): Promise<Result> {
    let batch = this.batches.get(key);
    if (batch === undefined) {
      batch = { context, waiting: [] };
      this.batches.set(key, batch);
    }
    if (!this.waits(key, batch.context)) this.schedule();
    const waiting = batch.waiting;
    return new Promise((resolve, reject) => {
      waiting.push({ item, resolve, reject });
    });
  }

  private waits(key: string, context: Context): boolean {
    return this.inFlight.has(key) && (this.options.waitsForAnswer?.(context) ?? false);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.sendAll);
  }

  private readonly sendAll = (): void => {
    this.scheduled = false;
    const max = this.options.maxPerSend;
    for (const [key, batch] of this.batches) {
      if (this.waits(key, batch.context)) continue;
      this.batches.delete(key);
      for (let from = 0; from < batch.waiting.length; from += max) {
        this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
        this.send(batch.context, batch.waiting.slice(from, from + max), () => this.answered(key));
      }
    }
  };

  private answered(key: string): void {
    const left = (this.inFlight.get(key) ?? 1) - 1;
    if (left > 0) {
      this.inFlight.set(key, left);
      return;
    }
    this.inFlight.delete(key);
    if (this.batches.has(key)) this.schedule();
  }

  private send(context: Context, waiting: Array<Waiting<Item, Result>>, done: () => void): void {
    let sent: Promise<Result[]>;
    try {
      sent = this.options.send(
        context,
        waiting.map((w) => w.item),
      );
    } catch (err) {
      sent = Promise.reject(err);
    }
    sent.then(
      (results) => {
        done();
        for (let i = 0; i < waiting.length; i++) waiting[i].resolve(results[i]);
      },
      (err: unknown) => {
        done();
        for (const w of waiting) w.reject(err);
      },
    );
  }
}
