// One upstream provider: an account of a provider type (anthropic, bedrock, vertex) with its own
// connection pool and credential. It owns everything about reaching its API: the path of each
// operation, how a request is authenticated (a key, a signature, an access token), what its body
// must change (the model in the URL, a version field), how its stream is framed, and what its
// error answers look like. The gateway's stages and router reach it only through this interface;
// a provider type is a folder beside anthropic/ plus one line in registry.ts.
import type { IncomingHttpHeaders } from 'node:http';
import type { ModelInfo } from '../dialects/anthropic/wire.js';
import type { ProviderDialect } from '../dialects/translators/translator.js';
import type { ReplayableRequest } from '../upstream/client.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamResponse } from '../upstream/exchange.js';

export type { ProviderDialect };

/** What one attempt asks of the provider, in its dialect. */
export interface ProviderCall {
  readonly operation: 'messages' | 'count_tokens';
  /** A request body in the provider's dialect (a Messages request). */
  readonly body: Buffer | string;
  /** The body is the client's own bytes: the client's headers go along as they came. */
  readonly forwarded: boolean;
  /** The value of the body's `model` member as it stands. */
  readonly bodyModel: string;
  /** The model to ask for: the route's id for it, or the catalogue's when the route names none. */
  readonly model: string;
  /** The route names the provider's model id: the body's `model` must say it. */
  readonly modelNamed: boolean;
  readonly stream: boolean;
  /** The client's query string with its '?' ('' for none): the messages surface keeps it. */
  readonly query: string;
  readonly incoming: IncomingHttpHeaders;
}

/** Turns a stream's own framing into the dialect's server-sent events, chunk by chunk. */
export interface StreamDecoder {
  /** The SSE bytes the chunk completes ('' when it completes none). May throw on a malformed frame. */
  push(chunk: Buffer): Buffer | string;
  /** Whatever the end of the stream leaves (a torn frame is an error). */
  end(): Buffer | string;
}

export interface Provider {
  /** Its id in the models file's `providers` (`anthropic` for the one built from the environment). */
  readonly id: string;
  /** Its type: the folder that implements it. */
  readonly type: string;
  /** Who serves it, in the GenAI semantic conventions' words (`gen_ai.provider.name`: anthropic, aws.bedrock, gcp.vertex_ai). */
  readonly genAiProvider: string;
  readonly dialect: ProviderDialect;
  /** Its connection pool, with the timeouts of the upstream settings. */
  readonly client: UpstreamClient;
  /** The HTTP request of one attempt: path, headers (credential or signature) and body. */
  request(call: ProviderCall): ReplayableRequest | Promise<ReplayableRequest>;
  /** A decoder for one streamed answer; null when the provider already streams the dialect's SSE. */
  streamDecoder(): StreamDecoder | null;
  /**
   * An answer as the dialect says it: a provider whose error answers have another shape (or another
   * status for the same meaning) gives back the dialect's; everything else comes back as it is.
   */
  normalize(answer: UpstreamResponse): UpstreamResponse;
  /** An error body with the provider's credential replaced, should the provider ever echo it. */
  scrubCredential(body: Buffer): Buffer;
  /** Every model it serves now, for the catalogue's refresh; null when it has no such list. */
  readonly listModels: (() => Promise<ModelInfo[]>) | null;
  close(): Promise<void>;
}
