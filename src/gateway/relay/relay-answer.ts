// Relays a streamed provider answer to the client as undici hands over its chunks: each chunk is
// mapped to what the client gets (the same bytes, or re-framed text) and written at once. A client
// that reads slowly pauses the upstream socket until its 'drain', so memory stays flat; a client
// that goes away cancels the request (the gateway's close handler), which ends the relay.
import type { ServerResponse } from 'node:http';
import type { AnswerSink, AnswerStream } from '../../upstream/answer-stream.js';
import type { Cancellation } from '../../upstream/cancellation.js';
import { ExchangeCancelled } from '../../upstream/exchange.js';
import type { PumpResult } from './pump.js';

export interface ChunkMapper {
  /**
   * What to write for this upstream chunk ('' for nothing). May throw: the relay ends as source_failed.
   * `earlierSent`: what was written for earlier chunks has left the process (the response holds no
   * byte of it), so the mapper may write this chunk's output over its earlier output's buffer.
   */
  chunk(chunk: Buffer, earlierSent: boolean): string | Buffer;
  /**
   * chunk() gives back the chunk it is given, as it is, and only reads it: the relay writes the chunk
   * first and hands it to chunk() after, so the client does not wait for that reading (the first
   * token of a batch of events goes out before the batch's usage is read).
   */
  readonly unchanged?: boolean;
  /** What to write after the last chunk of a complete answer. */
  end(): string | Buffer;
}

/**
 * The caller has set the head (writeHead) but not sent it. The chunks the provider sent with its own
 * headers are at hand when the sink attaches, and the head goes out with the first of them in one
 * write; when none is, the head goes out at once, so the client is not left waiting for the first event.
 * A complete answer leaves the response corked for the caller's `res.end()`, which uncorks it: the last
 * bytes and the end of the chunked body then leave in one write. Without it the last chunk went out
 * when the turn's writes were flushed, before the caller's continuation ran, and the body's end in a
 * write (a system call, a packet) of its own: ~10 µs of a streamed request's CPU (issue 35).
 */
export function relayAnswer(res: ServerResponse, stream: AnswerStream, cancellation: Cancellation, mapper: ChunkMapper): Promise<PumpResult> {
  return new Promise((resolve) => {
    const sink = new RelaySink(res, stream, cancellation, mapper, resolve);
    stream.attach(sink);
    if (!sink.wrote && !res.destroyed) res.flushHeaders();
  });
}

class RelaySink implements AnswerSink {
  /** Something was written to the client (the head went with it). */
  wrote = false;
  private waiting = false;
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly stream: AnswerStream,
    private readonly cancellation: Cancellation,
    private readonly mapper: ChunkMapper,
    private readonly resolve: (result: PumpResult) => void,
  ) {}

  data(chunk: Buffer): boolean {
    if (this.done) return false;
    const res = this.res;
    if (res.destroyed) {
      this.finish({ end: 'client_gone', error: null });
      this.stream.cancel(new ExchangeCancelled());
      return false;
    }
    if (this.mapper.unchanged === true) {
      const flowing = chunk.length === 0 || this.write(chunk);
      return this.map(chunk, false) !== null && flowing;
    }
    // Nothing queued in the response or its socket: the earlier writes were handed to the kernel.
    const out = this.map(chunk, res.writableLength === 0);
    if (out === null) return false;
    return out.length === 0 || this.write(out);
  }

  /** The mapper's output, or null when it threw (the relay has ended as source_failed). */
  private map(chunk: Buffer, earlierSent: boolean): string | Buffer | null {
    try {
      return this.mapper.chunk(chunk, earlierSent);
    } catch (err) {
      this.finish({ end: 'source_failed', error: err });
      this.stream.cancel(new ExchangeCancelled());
      return null;
    }
  }

  /** Writes to the client; false = wait for its 'drain' (the upstream read pauses until then). */
  private write(out: string | Buffer): boolean {
    this.wrote = true;
    if (this.res.write(out)) return true;
    if (!this.waiting) {
      this.waiting = true;
      this.res.once('drain', this.onDrain);
    }
    return false;
  }

  end(): void {
    if (this.done) return;
    let out: string | Buffer;
    try {
      out = this.mapper.end();
    } catch (err) {
      return this.finish({ end: 'source_failed', error: err });
    }
    if (!this.res.destroyed) {
      this.res.cork();
      if (out.length > 0) {
        this.wrote = true;
        this.res.write(out);
      }
    }
    this.finish({ end: 'complete', error: null });
  }

  error(err: Error): void {
    const gone = this.cancellation.cancelled || this.res.destroyed;
    this.finish({ end: gone ? 'client_gone' : 'source_failed', error: err });
  }

  private readonly onDrain = (): void => {
    this.waiting = false;
    this.stream.resume();
  };

  private finish(result: PumpResult): void {
    if (this.done) return;
    this.done = true;
    this.resolve(result);
  }
}
