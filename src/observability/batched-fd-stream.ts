// Log lines to a file descriptor in batches, encoded straight into reusable byte buffers. pino's own
// destination (sonic-boom) appends each line to a pending string and measures that whole string's
// byte length on every write, which made it most of the access line's cost (~3.5 of ~6 µs a line in
// bench/micro/log-line); here a line costs one UTF-8 encode into a buffer that is already there.
//
// Writes are asynchronous (a thread-pool job per batch, never per line), one at a time, in order.
// While one is in flight new lines fill the next buffer. A batch goes out when it reaches
// `minBytes`, when `flushEveryMs` passes, on flush(), and synchronously on process exit.
import { write, writeSync } from 'node:fs';

export interface BatchedFdStreamOptions {
  fd: number;
  /** A batch is written once it holds this many bytes. */
  minBytes: number;
  /** Lines wait at most this long. */
  flushEveryMs: number;
}

/** Room for a line of at most this many UTF-16 units in any buffer (3 bytes each at most in UTF-8). */
const LINE_ROOM = 16 * 1024;
const RETRY_MS = 10;

export class BatchedFdStream {
  private current: Buffer;
  private used = 0;
  /** Full batches waiting for the write in flight, oldest first. */
  private readonly queued: Buffer[] = [];
  /** Buffers that went out and can be filled again. */
  private readonly spare: Buffer[] = [];
  private inFlight: Buffer | null = null;
  /** The in-flight batch is not with the kernel but waiting to be tried again (the pipe was full). */
  private retrying = false;
  private readonly capacity: number;
  private readonly timer: NodeJS.Timeout;
  private readonly onExit = () => this.flushSync();
  private flushWaiters: Array<(err?: Error) => void> = [];

  constructor(private readonly opts: BatchedFdStreamOptions) {
    this.capacity = opts.minBytes + 3 * LINE_ROOM;
    this.current = Buffer.allocUnsafe(this.capacity);
    this.timer = setInterval(() => this.flush(), opts.flushEveryMs).unref();
    process.once('exit', this.onExit);
  }

  write(line: string): boolean {
    if (3 * line.length > this.capacity - this.used) {
      if (3 * line.length > this.capacity) {
        // A line larger than a buffer goes as its own batch, after what came before it.
        this.seal();
        this.queued.push(Buffer.from(line, 'utf8'));
        this.pump();
        return true;
      }
      this.seal();
    }
    this.used += this.current.write(line, this.used);
    if (this.used >= this.opts.minBytes) {
      this.seal();
      this.pump();
    }
    return true;
  }

  /** Starts writing everything pending; `done` runs once it is all written (or the write failed). */
  flush(done?: (err?: Error) => void): void {
    this.seal();
    if (done !== undefined) {
      if (this.inFlight === null && this.queued.length === 0) done();
      else this.flushWaiters.push(done);
    }
    this.pump();
  }

  /** Writes what has not been handed to the kernel yet, blocking: for process exit. */
  flushSync(): void {
    this.seal();
    if (this.retrying && this.inFlight !== null) {
      this.queued.unshift(this.inFlight);
      this.inFlight = null;
      this.retrying = false;
    }
    for (const batch of this.queued.splice(0)) writeAllSync(this.opts.fd, batch);
  }

  /** Stops the timer and the exit hook; what is pending is written synchronously. */
  end(): void {
    clearInterval(this.timer);
    process.off('exit', this.onExit);
    this.flushSync();
  }

  /** Moves the filled part of the current buffer to the queue. */
  private seal(): void {
    if (this.used === 0) return;
    this.queued.push(this.current.subarray(0, this.used));
    this.current = this.spare.pop() ?? Buffer.allocUnsafe(this.capacity);
    this.used = 0;
  }

  private pump(): void {
    if (this.inFlight !== null) return;
    const batch = this.queued.shift();
    if (batch === undefined) {
      const waiters = this.flushWaiters;
      this.flushWaiters = [];
      for (const w of waiters) w();
      return;
    }
    this.send(batch);
  }

  private send(batch: Buffer): void {
    this.inFlight = batch;
    write(this.opts.fd, batch, 0, batch.length, null, (err, written) => {
      if (err !== null) {
        if (err.code === 'EAGAIN') {
          // A non-blocking pipe that is full: the same bytes again shortly. The timer keeps the
          // process alive as a write in flight does; at exit flushSync takes the batch over.
          this.retrying = true;
          setTimeout(() => {
            if (!this.retrying) return;
            this.retrying = false;
            this.send(batch);
          }, RETRY_MS);
          return;
        }
        this.inFlight = null;
        this.queued.length = 0;
        const waiters = this.flushWaiters;
        this.flushWaiters = [];
        for (const w of waiters) w(err);
        return;
      }
      if (written < batch.length) return this.send(batch.subarray(written));
      this.inFlight = null;
      // Buffers of full capacity go back to be filled again; an outsized line's buffer does not.
      if (batch.buffer.byteLength === this.capacity && batch.byteOffset === 0 && this.spare.length < 2) this.spare.push(Buffer.from(batch.buffer, 0, this.capacity));
      this.pump();
    });
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function writeAllSync(fd: number, batch: Buffer): void {
  let offset = 0;
  while (offset < batch.length) {
    try {
      offset += writeSync(fd, batch, offset, batch.length - offset);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(pause, 0, 0, 1); // the reader drains the pipe meanwhile
    }
  }
}
