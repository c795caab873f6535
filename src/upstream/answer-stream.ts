// The body of a streamed provider answer, pushed to one sink as undici parses it: no Readable, no
// async iteration, no Transform per chunk. Backpressure is the sink's return value: false pauses the
// upstream socket until resume(). Chunks that arrive before a sink is attached are held (the socket
// is paused meanwhile) and replayed on attach.
/** The answer's headers came, then its body broke (cut, stalled, too large): not a connect failure. */
export class AnswerBodyError extends Error {
  override readonly name = 'AnswerBodyError';

  constructor(override readonly cause: unknown) {
    super('the upstream answer broke after its headers');
  }
}

/** The flow of the answer's connection: the exchange handler that reads it. */
export interface AnswerFlow {
  /** Stop reading the upstream socket after the chunk being handled. */
  pause(): void;
  resume(): void;
  /** Drop the rest of the answer; its connection is closed, not reused. */
  abort(reason: Error): void;
}

export interface AnswerSink {
  /** A body chunk; false = stop reading the upstream until resume(). */
  data(chunk: Buffer): boolean;
  /** The answer is complete. */
  end(): void;
  /** The answer broke (reset, idle timeout, cancelled); nothing follows. */
  error(err: Error): void;
}

export class AnswerStream {
  private sink: AnswerSink | null = null;
  private held: Buffer[] = [];
  private state: 'open' | 'ended' | 'failed' = 'open';
  private failure: Error | null = null;

  constructor(private readonly controller: AnswerFlow) {}

  get finished(): boolean {
    return this.state !== 'open';
  }

  attach(sink: AnswerSink): void {
    if (this.sink !== null) throw new Error('AnswerStream: a sink is already attached');
    this.sink = sink;
    const held = this.held;
    this.held = [];
    let flowing = true;
    for (let i = 0; i < held.length; i++) flowing = sink.data(held[i]!) && flowing;
    if (this.state === 'ended') sink.end();
    else if (this.state === 'failed') sink.error(this.failure!);
    else if (flowing) this.controller.resume();
  }

  resume(): void {
    if (this.state === 'open') this.controller.resume();
  }

  /** Drops the rest of the answer (its connection is closed, not reused). */
  cancel(reason: Error): void {
    if (this.state === 'open') this.controller.abort(reason);
  }

  /** From the exchange handler. */
  push(chunk: Buffer): void {
    const sink = this.sink;
    if (sink === null) {
      this.held.push(chunk);
      this.controller.pause();
    } else if (!sink.data(chunk)) {
      this.controller.pause();
    }
  }

  finish(): void {
    if (this.state !== 'open') return;
    this.state = 'ended';
    this.sink?.end();
  }

  fail(err: Error): void {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.failure = err;
    this.sink?.error(err);
  }
}

/** Reads a whole streamed answer into memory (for the rare non-200 answer sent as a stream). */
export function collectAnswer(stream: AnswerStream, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.attach({
      data(chunk) {
        size += chunk.length;
        if (size > maxBytes) {
          stream.cancel(new Error(`upstream answer larger than ${maxBytes} bytes`));
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      end: () => resolve(Buffer.concat(chunks, size)),
      // Marked as a body failure: the caller answers 502/504, not 500.
      error: (err) => reject(new AnswerBodyError(err)),
    });
  });
}
