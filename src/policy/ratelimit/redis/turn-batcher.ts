// Calls made in one turn of the event loop, gathered per key and sent together at its end. The Redis
// client writes what it is given from a setImmediate anyway, so a batch waits no longer than a lone
// call would; under load the acquires of a busy key that arrive in the same turn then cost one script,
// one write and one reply instead of one each (the write and read system calls were the largest part of
// a limited request's cost in profiles).

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
}

export class TurnBatcher<Context, Item, Result> {
  private batches = new Map<string, Batch<Context, Item, Result>>();
  private scheduled = false;

  constructor(private readonly options: TurnBatcherOptions<Context, Item, Result>) {}

  /** `context` is the key's (the first add of a turn gives it); items of one key go in the order added. */
  add(key: string, context: Context, item: Item): Promise<Result> {
    let batch = this.batches.get(key);
    if (batch === undefined) {
      batch = { context, waiting: [] };
      this.batches.set(key, batch);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.sendAll);
    }
    const waiting = batch.waiting;
    return new Promise((resolve, reject) => {
      waiting.push({ item, resolve, reject });
    });
  }

  private readonly sendAll = (): void => {
    this.scheduled = false;
    const batches = this.batches;
    this.batches = new Map();
    const max = this.options.maxPerSend;
    for (const batch of batches.values()) {
      for (let from = 0; from < batch.waiting.length; from += max) this.send(batch.context, batch.waiting.slice(from, from + max));
    }
  };

  private send(context: Context, waiting: Array<Waiting<Item, Result>>): void {
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
        for (let i = 0; i < waiting.length; i++) waiting[i].resolve(results[i]);
      },
      (err: unknown) => {
        for (const w of waiting) w.reject(err);
      },
    );
  }
}
