// One request to the provider as an undici dispatch handler. A plain JSON answer is collected as
// undici parses it and handed over whole (one promise per call, no body stream); an event stream is
// handed over at its headers as an AnswerStream. Cancellation goes straight to undici's abort.
// Measured against `pool.request` (a Readable body, an AbortSignal listener, `arrayBuffer()`), it cut
// the CPU per messages request in the bench from 245 to 204 µs (method: bench/README.md).
//
// The handler speaks undici's callback interface (onConnect, onHeaders, onData, onComplete, onError),
// the one its HTTP/1.1 client calls itself: a handler of the newer controller interface is wrapped,
// per request, in an adapter that also parses every response header and the trailers into objects.
// Here the headers stay raw until something asks for them (the content type is looked up alone),
// and the handler is its own flow control (AnswerFlow).
//
// undici 8 removed that callback interface (its handlers speak only the controller one:
// onRequestStart, onResponseStart, onResponseData, onResponseEnd, onResponseError), and undici 8
// needs Node 22; the gateway runs on Node 20, so package.json pins undici ^7. Everything that knows
// the handler interface is in this file, behind `exchange()`: moving to undici 8 rewrites this file
// only (the Pool and its options in client.ts are the same in both).
import { util, type Dispatcher } from 'undici';
import type { AnswerFlow } from './answer-stream.js';
import { AnswerBodyError, AnswerStream } from './answer-stream.js';
import type { Cancellation } from './cancellation.js';
import { RawHeaders, rawHeader, type HeaderNames, type HeaderValue } from '../lib/http/raw-headers.js';
import { spellsLowerAscii } from '../lib/ascii-lower.js';

export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** The status line and headers of the provider's answer (translators see it as `AnswerHead`: header look-ups only). */
interface UpstreamResponseHead {
  readonly statusCode: number;
  /** Every header, by lower-case name (parsed when first asked for). */
  readonly headers: AnswerHeaders;
  /** One header by its lower-case name, without parsing the others; several of that name come as a list. */
  header(lowerName: string): string | string[] | undefined;
  /** The headers of the names given, as header() would give each (in their order), read in one pass. */
  headersOf(names: HeaderNames): HeaderValue[];
  /** performance.now() when the call that answered was handed to the connection pool. */
  readonly dispatchedAt: number;
  /** performance.now() when the headers arrived. */
  readonly headersAt: number;
}

export interface BufferedAnswer extends UpstreamResponseHead {
  readonly kind: 'buffered';
  readonly body: Buffer;
}

export interface StreamedAnswer extends UpstreamResponseHead {
  readonly kind: 'stream';
  readonly body: AnswerStream;
}

export type UpstreamResponse = BufferedAnswer | StreamedAnswer;

/** Why a call ended without an answer because the client went away. */
export class ExchangeCancelled extends Error {
  override readonly name = 'AbortError';
  readonly code = 'UND_ERR_ABORTED';

  constructor() {
    super('the client went away');
  }
}

const EVENT_STREAM = 'text/event-stream';

export function isEventStreamType(contentType: string | string[] | undefined, streamed: string = EVENT_STREAM): boolean {
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  if (type === undefined || type.length < streamed.length) return false;
  // Media types are case-insensitive (RFC 9110 8.3.1), in ASCII: compared letter by letter, as a cut and
  // toLowerCase cost ~0.6 µs an answer (issue 35).
  return spellsLowerAscii(type, 0, streamed);
}

/** An answer as handed over; its headers become an object the first time they are asked for. */
class Answer<K extends UpstreamResponse['kind'], B> {
  private parsed: AnswerHeaders | null = null;

  constructor(
    readonly kind: K,
    readonly statusCode: number,
    private readonly rawHeaders: RawHeaders,
    readonly dispatchedAt: number,
    readonly headersAt: number,
    readonly body: B,
  ) {}

  get headers(): AnswerHeaders {
    return (this.parsed ??= util.parseHeaders(this.rawHeaders.list()) as AnswerHeaders);
  }

  header(lowerName: string): string | string[] | undefined {
    return rawHeader(this.rawHeaders, lowerName);
  }

  headersOf(names: HeaderNames): HeaderValue[] {
    return names.valuesIn(this.rawHeaders);
  }
}

/**
 * One call over the pool: a JSON answer arrives whole, an event stream as an AnswerStream at its
 * headers, and the client going away (the cancellation) aborts the call at once.
 */
export function exchange(
  pool: Dispatcher,
  request: Dispatcher.DispatchOptions,
  cancellation: Cancellation | undefined,
  maxBufferedBytes: number,
  /** The media type of a streamed answer (lower case): a provider whose streams are framed otherwise names its own. */
  streamedType: string = EVENT_STREAM,
): Promise<UpstreamResponse> {
  // Already gone: no connection is opened for nobody.
  if (cancellation?.cancelled) return Promise.reject(new ExchangeCancelled());
  return new Promise((resolve, reject) => {
    pool.dispatch(request, new ExchangeHandler(resolve, reject, cancellation, maxBufferedBytes, streamedType));
  });
}

class ExchangeHandler implements Dispatcher.DispatchHandler, AnswerFlow {
  private abortCall: ((reason: Error) => void) | null = null;
  private resumeSocket: (() => void) | null = null;
  private paused = false;
  // What onHeaders learnt, kept until the answer is handed over (rawHeaders null: no answer yet).
  private statusCode = 0;
  private rawHeaders: RawHeaders | null = null;
  private headersAt = 0;
  // The handler is made just before the call is dispatched (exchange()).
  private readonly dispatchedAt = performance.now();
  private chunks: Buffer[] = [];
  private size = 0;
  private stream: AnswerStream | null = null;

  constructor(
    private readonly resolve: (answer: UpstreamResponse) => void,
    private readonly reject: (err: unknown) => void,
    private readonly cancellation: Cancellation | undefined,
    private readonly maxBufferedBytes: number,
    private readonly streamedType: string,
  ) {}

  /** The Cancellation hook. */
  cancel(): void {
    this.abort(new ExchangeCancelled());
  }

  abort(reason: Error): void {
    const abort = this.abortCall;
    this.abortCall = null;
    abort?.(reason);
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.resumeSocket?.();
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abortCall = abort;
    this.cancellation?.onCancel(this);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // 1xx: the real answer follows
    this.resumeSocket = resume;
    this.statusCode = statusCode;
    // A copy: undici's entries are views on the socket's read buffer (see RawHeaders).
    const raw = RawHeaders.copyOf(rawHeaders);
    this.rawHeaders = raw;
    this.headersAt = performance.now();
    if (isEventStreamType(rawHeader(raw, 'content-type'), this.streamedType)) {
      this.stream = new AnswerStream(this);
      this.resolve(new Answer('stream', statusCode, raw, this.dispatchedAt, this.headersAt, this.stream));
    }
    return !this.paused;
  }

  onData(chunk: Buffer): boolean {
    if (this.stream !== null) {
      this.stream.push(chunk);
      return !this.paused;
    }
    this.size += chunk.length;
    if (this.size > this.maxBufferedBytes) {
      this.abort(new Error(`upstream answer larger than ${this.maxBufferedBytes} bytes`));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.abortCall = null;
    this.cancellation?.onCancel(null);
    if (this.stream !== null) return this.stream.finish();
    const chunks = this.chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size);
    this.chunks = [];
    this.resolve(new Answer('buffered', this.statusCode, this.rawHeaders!, this.dispatchedAt, this.headersAt, body));
  }

  onError(err: Error): void {
    this.abortCall = null;
    this.cancellation?.onCancel(null);
    // Before a stream was handed over, the answer is still owed: the call fails.
    if (this.stream !== null) return this.stream.fail(err);
    this.reject(this.rawHeaders === null || err instanceof ExchangeCancelled ? err : new AnswerBodyError(err));
  }
}
