// A provider that streams numbered events as fast as its socket takes them, waiting for 'drain' when
// a write returns false: a test can see when the reader downstream stopped taking bytes (the producer
// has been blocked for a while) and check, by digest, that every byte arrived in order.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { waitFor } from './wait.js';

export class EventProducer {
  /** Bytes handed to res.write so far. */
  written = 0;
  /** Set when a write returned false and 'drain' has not come yet. */
  blockedSince: number | null = null;
  /** The producer wrote `capBytes` without ever being held back for long. */
  overflowed = false;
  /** The connection closed while a write waited for 'drain' (the reader went away). */
  cut = false;
  readonly done: Promise<void>;
  private readonly hash = createHash('sha256');
  private stopping = false;
  private seq = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly eventBytes = 16 * 1024,
    private readonly capBytes = 64 * 1024 * 1024,
  ) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    this.done = this.run();
  }

  /** Writes a last event and ends once the current write has drained. */
  stop(): void {
    this.stopping = true;
  }

  /** Resolves once writes have been held back for `quietMs` (the reader stopped taking bytes). */
  stalled(quietMs: number, withinMs: number): Promise<void> {
    return waitFor(() => {
      if (this.overflowed) throw new Error(`the producer wrote ${this.written} bytes without being held back`);
      return this.blockedSince !== null && performance.now() - this.blockedSince >= quietMs;
    }, withinMs, 20);
  }

  /** sha256 of every byte written, in order. */
  digest(): string {
    return this.hash.copy().digest('hex');
  }

  private async run(): Promise<void> {
    const res = this.res;
    while (!this.stopping) {
      if (this.written >= this.capBytes) {
        this.overflowed = true;
        break;
      }
      if (!this.write(this.event())) {
        this.blockedSince = performance.now();
        const drained = await new Promise<boolean>((r) => {
          const onDrain = () => (res.off('close', onClose), r(true));
          const onClose = () => (res.off('drain', onDrain), r(false));
          res.once('drain', onDrain);
          res.once('close', onClose);
        });
        this.blockedSince = null;
        if (!drained) {
          this.cut = true;
          return;
        }
      }
    }
    const last = Buffer.from('event: done\ndata: {}\n\n');
    this.hash.update(last);
    this.written += last.length;
    res.end(last);
  }

  private event(): Buffer {
    const head = `data: {"seq":${this.seq++},"pad":"`;
    const tail = '"}\n\n';
    return Buffer.from(head + 'x'.repeat(Math.max(0, this.eventBytes - head.length - tail.length)) + tail);
  }

  private write(bytes: Buffer): boolean {
    this.hash.update(bytes);
    this.written += bytes.length;
    return this.res.write(bytes);
  }
}

/** Reads a stream of bytes into a running digest: what arrived, compared with EventProducer.digest(). */
export class ByteDigest {
  bytes = 0;
  private readonly hash = createHash('sha256');

  update(chunk: Buffer): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
