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
  /** What to write for this upstream chunk ('' for nothing). May throw: the relay ends as source_failed. */
  chunk(chunk: Buffer): string | Buffer;
  /** What to write after the last chunk of a complete answer. */
  end(): string | Buffer;
}

/**
 * The caller has set the head (writeHead) but not sent it. The chunks the provider sent with its own
 * headers are at hand when the sink attaches, and the head goes out with the first of them in one
 * write; when none is, the head goes out at once, so the client is not left waiting for the first event.
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
    let out: string | Buffer;
    try {
      out = this.mapper.chunk(chunk);
    } catch (err) {
      this.finish({ end: 'source_failed', error: err });
      this.stream.cancel(new ExchangeCancelled());
      return false;
    }
    if (out.length === 0) return true;
    this.wrote = true;
    if (res.write(out)) return true;
    if (!this.waiting) {
      this.waiting = true;
      res.once('drain', this.onDrain);
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
    if (out.length > 0 && !this.res.destroyed) {
      this.wrote = true;
      this.res.write(out);
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
