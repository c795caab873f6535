// The seam between a client's dialect and a provider's: one Translator per (client dialect, provider
// dialect) pair. It turns the client's request into the provider's (for the model asked for, and again
// for each fallback model, always from the client's own request), and the provider's answer, whole or
// streamed, into the client's. The gateway's stages call it without knowing either dialect.
import type { HeaderNames, HeaderValue } from '../../lib/http/raw-headers.js';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { TokenUsage } from '../../metering/token-usage.js';
import type { ModelTraits } from '../model-traits.js';
import type { TranslationWarning } from './warnings.js';

/** The dialect a client speaks is named by the surface it uses. */
export type ClientDialect = 'messages' | 'chat' | 'responses';
export type ProviderDialect = 'anthropic';

/** The client's request as the request stages left it. */
export interface ClientRequest {
  /** Its bytes, exactly as they came. */
  readonly body: Buffer;
  /** Its parsed body (a JSON object). */
  readonly json: Record<string, unknown>;
  /** The query string with its '?', or ''. */
  readonly query: string;
  /** x-gateway-strict: a change to what the client asked for is refused instead of warned about. */
  readonly strict: boolean;
  /** Its headers (a surface may read its own, such as the Responses surface's `session-id`). */
  readonly headers: IncomingHttpHeaders;
}

export type ProviderRequest =
  | {
      ok: true;
      body: Buffer | string;
      /** The value of the body's `model` member. */
      model: string;
      /** The body is the client's own, in the provider's dialect: its headers are forwarded, not built. */
      forwarded: boolean;
      warnings: readonly TranslationWarning[];
      stream: boolean;
      includeUsage: boolean;
    }
  | { ok: false; message: string; param: string | null; code?: 'unsupported_parameter' };

/** What translating the provider's answer needs to know about the request. */
export interface ResponseMeta {
  /** The model name the client's response carries. */
  model: string;
  /** Chat: the client asked for the final usage chunk. */
  includeUsage: boolean;
  /**
   * The client's parsed request (null when the route read none whole, as with a pooled chat body):
   * the Responses surface maps tool names back and echoes request fields in its response object.
   */
  clientBody: Readonly<Record<string, unknown>> | null;
}

/** The provider's answer's headers, as the exchange holds them. */
export interface AnswerHead {
  header(lowerName: string): string | string[] | undefined;
  /** The headers of the names given, as header() would give each, read in one pass. */
  headersOf(names: HeaderNames): HeaderValue[];
}

/** A whole response for the client: status and body (its headers are set on the context's). */
export interface ClientResponse {
  status: number;
  body: Buffer | string;
  usage: TokenUsage | null;
  warnings: readonly TranslationWarning[];
}

/** What the provider's answer says of itself, in the provider's terms (for the request's trace span). */
export interface AnswerFacts {
  id: string | null;
  /** The model the provider says wrote the answer. */
  model: string | null;
  /** The provider's own stop reason (`end_turn`, `max_tokens`, ...). */
  finishReason: string | null;
}

/** How a relay ended: the provider finished, the client left, or the provider's stream broke. */
export type RelayEnd = 'complete' | 'client_gone' | 'source_failed';

/** One streamed answer's translation, chunk by chunk. */
export interface StreamTranslation {
  /**
   * What to write for this provider chunk ('' for nothing). May throw: the relay ends as failed.
   * `earlierSent`: everything written for earlier chunks has left the process, so the bytes given back
   * for them may be written over (a buffer reused, not a new one per chunk); when false or absent, nothing
   * given back before may change.
   */
  chunk(chunk: Buffer, earlierSent?: boolean): string | Buffer;
  /** chunk() gives back its input as it is and only reads it: the relay may write the chunk before it calls chunk(). */
  readonly unchanged?: boolean;
  /** What to write after the provider's last chunk. */
  end(): string | Buffer;
  /**
   * The relay ended (`failure`: what broke it, for 'source_failed'): what to write to close an
   * incomplete stream ('' for nothing; not written when the client left). Called once, before usage is read.
   */
  close(end: RelayEnd, failure: unknown): string | Buffer;
  /** The client received a complete response. */
  readonly complete: boolean;
  readonly firstTokenSeen: boolean;
  readonly usage: TokenUsage | null;
  /**
   * The provider's own error type when its stream carried an `error` event (`rate_limit_error`,
   * `overloaded_error`, …), else null: the route that sent it may need to cool down.
   */
  readonly providerError: string | null;
  /**
   * Output tokens relayed so far, estimated from the text, thinking and tool-argument deltas the
   * stream's parser saw (dialects/anthropic/relayed-output.ts): what a stream the client left is metered at least at.
   */
  readonly relayedTokens: number;
  /** The answer's id, model and finish reason, as far as the stream has told them. */
  readonly answer: AnswerFacts;
  readonly warnings: readonly TranslationWarning[];
}

export interface Translator {
  readonly client: ClientDialect;
  readonly provider: ProviderDialect;
  /** `fallback`: the request goes to another model than the one the client named. */
  request(client: ClientRequest, model: ModelTraits, fallback: boolean): ProviderRequest;
  /** Whether a streamed provider answer goes to the client as a stream (otherwise it is read whole). */
  streams(status: number, clientAskedStream: boolean): boolean;
  /** Sets the stream's response headers and starts its translation. */
  stream(meta: ResponseMeta, head: AnswerHead, headers: OutgoingHttpHeaders): StreamTranslation;
  /** A whole success (status < 300); sets the response's headers. */
  success(status: number, body: Buffer, meta: ResponseMeta, head: AnswerHead, headers: OutgoingHttpHeaders): ClientResponse;
  /** What a whole successful provider answer says of itself (for the request's trace span). */
  answer(body: Buffer): AnswerFacts;
  /** A provider error (status >= 300), its body already scrubbed of the gateway's credential; sets the headers. */
  error(status: number, body: Buffer, head: AnswerHead, headers: OutgoingHttpHeaders): ClientResponse;
}
