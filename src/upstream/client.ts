// The one connection pool to the provider: keep-alive, timeouts from docs/contract.md, and failures
// classified into kinds (policy/resilience/upstream-failure.ts maps a kind to the client's error and
// the metric label).
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import type { Cancellation } from './cancellation.js';
import type { UpstreamResponse } from './exchange.js';
import { AnswerBodyError } from './answer-stream.js';
import { exchange } from './exchange.js';

export interface UpstreamOptions {
  connections: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Longest silence inside a response body (the stream idle timeout). */
  bodyTimeoutMs: number;
  /** Largest JSON answer held whole (default MAX_BUFFERED_ANSWER_BYTES); tests set it small. */
  maxBufferedAnswerBytes?: number;
  /**
   * The media type of the provider's streamed answers (default text/event-stream): an answer of this
   * type is handed over at its headers and relayed as it arrives (Bedrock: application/vnd.amazon.eventstream).
   */
  streamedType?: string;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** A Readable is streamed with backpressure (the local proxy passes the client's request through). */
  body?: Buffer | string | Readable;
  signal?: AbortSignal;
}

/**
 * A request held whole in memory, so a retry, a failover to another route or a fallback can send it
 * again. (Only the local proxy streams a body, and it does not retry.)
 */
export type ReplayableRequest = Omit<UpstreamRequest, 'body'> & { body: Buffer | string };

/** A response as undici gives it, its body a stream: the local proxy and the models list read these. */
export type RawResponse = Dispatcher.ResponseData;

/** `cut` and `stalled`: the answer's headers came, then its body broke or went silent. */
export type UpstreamFailureKind = 'connect' | 'timeout' | 'reset' | 'cut' | 'stalled' | 'cancelled';

/** A non-streamed answer larger than this is refused (it would be held in memory whole). */
export const MAX_BUFFERED_ANSWER_BYTES = 64 * 1024 * 1024;

export class UpstreamClient {
  readonly origin: string;
  private readonly prefix: string;
  private readonly pool: Pool;
  /** The largest answer held in memory whole (a JSON answer, or a stream read to its end). */
  readonly maxBufferedBytes: number;
  private readonly streamedType: string | undefined;

  constructor(baseUrl: string, options: UpstreamOptions) {
    this.maxBufferedBytes = options.maxBufferedAnswerBytes ?? MAX_BUFFERED_ANSWER_BYTES;
    this.streamedType = options.streamedType?.toLowerCase();
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(this.origin, {
      connections: options.connections,
      pipelining: 1,
      connectTimeout: options.connectTimeoutMs,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
    });
  }

  request(req: UpstreamRequest): Promise<RawResponse> {
    return this.pool.request({
      origin: this.origin,
      method: req.method,
      path: this.prefix + req.path,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal,
    });
  }

  /**
   * The gateway's hot path: a JSON answer arrives whole, an event stream as an AnswerStream, and the
   * client going away (the cancellation) aborts the call at once.
   */
  exchange(req: UpstreamRequest, cancellation?: Cancellation): Promise<UpstreamResponse> {
    const request = { origin: this.origin, method: req.method, path: this.prefix + req.path, headers: req.headers, body: req.body ?? null };
    return exchange(this.pool, request, cancellation, this.maxBufferedBytes, this.streamedType);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Which way an upstream call failed, from undici's stable error codes. */
export function classifyUpstreamFailure(err: unknown): UpstreamFailureKind {
  if (err instanceof AnswerBodyError) {
    const kind = classifyUpstreamFailure(err.cause);
    return kind === 'cancelled' ? kind : kind === 'timeout' ? 'stalled' : 'cut';
  }
  const e = err as { code?: string; name?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  if (e?.name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') return 'cancelled';
  if (code !== undefined && CONNECT_CODES.has(code)) return 'connect';
  if (code !== undefined && TIMEOUT_CODES.has(code)) return 'timeout';
  return 'reset';
}
