// Settles waiting for a ride to Redis. A settle changes nothing a decision of this instance needs
// until its key (or its customer) is checked again, so it is not sent on its own: the next acquire
// of the same key and customer carries it into its script, which applies it before deciding, and
// whatever no acquire picked up within a short delay goes as one settle script per key. On a busy key
// that halves the round trips and scripts per request; each settle is still applied on its own, in
// the order it was made, with the numbers of its reservation (the arithmetic is the same as sending
// it at once; only the moment differs, by at most the delay).

/** One settle as the scripts take it: used, keyTokens, customerTokens, keyRpm, keyTpm, customerRpm, customerTpm. */
export const SETTLE_ARGS = 7;

/** One key's queue, and what is sent of it: the count is written into its first place when it goes. */
export interface SettleBatch {
  /** The key's entry and its customer's, the scripts' KEYS. */
  readonly entries: readonly [string, string];
  /** The count, then SETTLE_ARGS strings per settle in the order they were made: the tail both scripts read. */
  readonly args: string[];
}

export interface PendingSettlesOptions {
  /** How long a settle may wait for an acquire of its key before it goes alone (Infinity: until flush()). */
  delayMs: number;
  /** A queue this long goes at once (keeps a script's arguments few). */
  maxPerKey: number;
  /** Sends what is due; called from the timer and when a queue is full. */
  send: (batch: SettleBatch) => void;
}

/** The tail of an acquire that carries no settle. */
const NONE: readonly string[] = ['0'];

export class PendingSettles {
  /** By the key's entry name, which names the customer too; insertion order is the order of sending. */
  private queues = new Map<string, SettleBatch>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: PendingSettlesOptions) {}

  add(entries: readonly [string, string], settle: readonly string[]): void {
    let queue = this.queues.get(entries[0]);
    if (queue === undefined) {
      queue = { entries, args: [''] };
      this.queues.set(entries[0], queue);
    }
    for (const arg of settle) queue.args.push(arg);
    if (queue.args.length > this.options.maxPerKey * SETTLE_ARGS) {
      this.queues.delete(entries[0]);
      this.options.send(batchOf(queue));
      return;
    }
    if (this.timer === null && Number.isFinite(this.options.delayMs)) {
      this.timer = setTimeout(() => this.flush(), this.options.delayMs);
      this.timer.unref();
    }
  }

  /** The settles waiting for this key, taken out: the acquire's script applies them. */
  take(keyEntry: string): readonly string[] {
    const queue = this.queues.get(keyEntry);
    if (queue === undefined) return NONE;
    this.queues.delete(keyEntry);
    return batchOf(queue).args;
  }

  /** Sends everything waiting, one batch per key, in the order the keys were first settled. */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const due = this.queues;
    this.queues = new Map();
    for (const queue of due.values()) this.options.send(batchOf(queue));
  }

  get size(): number {
    return this.queues.size;
  }
}

function batchOf(queue: SettleBatch): SettleBatch {
  queue.args[0] = String((queue.args.length - 1) / SETTLE_ARGS);
  return queue;
}
