// One request to the provider as an undici dispatch handler. A plain JSON answer is collected as
// undici parses it and handed over whole (one promise per call, no body stream); an event stream is
// handed over at its headers as an AnswerStream. Cancellation goes straight to undici's controller.
// Measured against `pool.request` (a Readable body, an AbortSignal listener, `arrayBuffer()`): see
// bench/README.md.
import type { Dispatcher } from 'undici';
import { AnswerStream } from './answer-stream.js';
import type { Cancellation } from './cancellation.js';

export type AnswerHeaders = Record<string, string | string[] | undefined>;

interface AnswerHead {
  readonly statusCode: number;
  readonly headers: AnswerHeaders;
  /** performance.now() when the headers arrived. */
  readonly headersAt: number;
}

export interface BufferedAnswer extends AnswerHead {
  readonly kind: 'buffered';
  readonly body: Buffer;
}

export interface StreamedAnswer extends AnswerHead {
  readonly kind: 'stream';
  readonly body: AnswerStream;
}

export type ProviderAnswer = BufferedAnswer | StreamedAnswer;

/** Why a call ended without an answer because the client went away. */
export class ExchangeCancelled extends Error {
  override readonly name = 'AbortError';
  readonly code = 'UND_ERR_ABORTED';

  constructor() {
    super('the client went away');
  }
}

/** The answer's headers came, then its body broke (cut, stalled, too large): not a connect failure. */
export class AnswerBodyError extends Error {
  override readonly name = 'AnswerBodyError';

  constructor(override readonly cause: unknown) {
    super('the upstream answer broke after its headers');
  }
}

const EVENT_STREAM = 'text/event-stream';

export function isEventStreamType(contentType: string | string[] | undefined): boolean {
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  // Media types are case-insensitive (RFC 9110 8.3.1).
  return type !== undefined && type.length >= EVENT_STREAM.length && type.slice(0, EVENT_STREAM.length).toLowerCase() === EVENT_STREAM;
}

export class ExchangeHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private head: AnswerHead | null = null;
  private chunks: Buffer[] = [];
  private size = 0;
  private stream: AnswerStream | null = null;

  constructor(
    private readonly resolve: (answer: ProviderAnswer) => void,
    private readonly reject: (err: unknown) => void,
    private readonly cancellation: Cancellation | undefined,
    private readonly maxBufferedBytes: number,
  ) {}

  /** The Cancellation hook. */
  cancel(): void {
    this.controller?.abort(new ExchangeCancelled());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    this.cancellation?.onCancel(this);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: AnswerHeaders): void {
    if (statusCode < 200) return; // 1xx: the real answer follows
    const head: AnswerHead = { statusCode, headers, headersAt: performance.now() };
    this.head = head;
    if (!isEventStreamType(headers['content-type'])) return;
    this.stream = new AnswerStream(controller);
    this.resolve({ kind: 'stream', statusCode, headers, headersAt: head.headersAt, body: this.stream });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.stream !== null) return this.stream.push(chunk);
    this.size += chunk.length;
    if (this.size > this.maxBufferedBytes) {
      controller.abort(new Error(`upstream answer larger than ${this.maxBufferedBytes} bytes`));
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.cancellation?.onCancel(null);
    if (this.stream !== null) return this.stream.finish();
    const head = this.head!;
    const chunks = this.chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size);
    this.chunks = [];
    this.resolve({ kind: 'buffered', statusCode: head.statusCode, headers: head.headers, headersAt: head.headersAt, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    this.cancellation?.onCancel(null);
    // Before a stream was handed over, the answer is still owed: the call fails.
    if (this.stream !== null) return this.stream.fail(err);
    this.reject(this.head === null || err instanceof ExchangeCancelled ? err : new AnswerBodyError(err));
  }
}
