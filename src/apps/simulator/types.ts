// Public shapes of the provider simulator. index.ts re-exports them; other modules of the
// simulator import from here so that index.ts stays a thin facade.
import type { KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ModelInfo } from '../../dialects/anthropic/wire.js';
import type { RateLimitOptions } from './accounts/rate-limits.js';

export type { RateLimitOptions } from './accounts/rate-limits.js';

/** One account of the provider: its own API key, rate limits and prompt cache. */
export interface AnthropicAccountOptions {
  /** Named by faults and the control endpoint (default `anthropic-1`, `anthropic-2`, … in order). */
  id?: string;
  /** The credential that selects the account (x-api-key or Bearer). */
  apiKey: string;
  limits?: RateLimitOptions;
}

/** One AWS account's Bedrock, in one region: Signature V4 keys, a Bedrock API key, or both. */
export interface BedrockAccountOptions {
  /** Default `bedrock-1`, `bedrock-2`, … in order. */
  id?: string;
  /** The region signatures must be scoped to (default `us-east-1`). */
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** When set, signed requests must carry it as x-amz-security-token. */
  sessionToken?: string;
  /** A Bedrock API key, accepted as `Authorization: Bearer`. */
  apiKey?: string;
  limits?: RateLimitOptions;
}

/** One Google service account allowed to call Vertex AI's Anthropic models. */
export interface VertexAccountOptions {
  /** Default `vertex-1`, `vertex-2`, … in order. */
  id?: string;
  /** The JWT grant's `iss`. */
  clientEmail: string;
  /** Verifies the grant's RS256 signature: a PEM public key, the PEM private key it belongs to, or a KeyObject. */
  publicKey: string | KeyObject;
  /** When set, the project the account may call (another is 403 PERMISSION_DENIED). */
  project?: string;
  /** `expires_in` of the access tokens issued to it (default 3599). */
  tokenLifetimeSeconds?: number;
  limits?: RateLimitOptions;
}

export interface SimulatorOptions {
  /** Delay before the response headers and the first event (default 0). */
  ttftMs?: number;
  /** Pacing of streamed deltas; 0 = as fast as possible (default 0). */
  tokensPerSecond?: number;
  /** Length of a text reply in tokens (words) when max_tokens allows (default 12). */
  replyTokens?: number;
  /**
   * When set, an unpaced stream goes out in chunks of whole events of about this many bytes, one chunk
   * per turn of the event loop: a provider that flushes every few events (0: every event alone). Unset
   * (the default), its events are written back to back in 16 KiB batches, which leave together.
   */
  streamChunkBytes?: number;
  /**
   * Uncached input tokens reported, as a multiple of what the body counts (default 1): a provider that
   * counts far more than the text (documents or images by URL, server tools), for budget tests.
   */
  inputMultiplier?: number;
  /** When set, the credential (x-api-key or Bearer) must equal it; when unset any non-empty one is accepted. */
  apiKey?: string;
  /** Keep RecordedRequest entries in `received` (default false). */
  record?: boolean;
  /** The models list it serves and validates against (default: the catalogue's default models). */
  models?: ModelInfo[];
}

/** Who may call the simulator, fixed at start. */
export interface AccountOptions {
  /**
   * Provider accounts, each selected by its API key. Without them there is one account, `default`,
   * whose key is the `apiKey` option (any key when that is unset), with no rate limits metered.
   */
  accounts?: AnthropicAccountOptions[];
  /** Bedrock accounts (POST /model/{id}/invoke…); none: every Bedrock call is refused. */
  bedrock?: BedrockAccountOptions[];
  /** Vertex AI service accounts (POST /token, then …:rawPredict); none: every grant is refused. */
  vertex?: VertexAccountOptions[];
  /** Milliseconds since the epoch (default Date.now); advanceClock() moves ahead of it. */
  now?: () => number;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Fault =
  | { kind: 'status'; status: number; errorType?: string; message?: string; retryAfter?: number }
  | { kind: 'reset-before-headers' }
  | { kind: 'hang-before-headers' }
  | { kind: 'reset-mid-stream'; afterEvents: number }
  | { kind: 'stall-mid-stream'; afterEvents: number }
  | { kind: 'error-event'; afterEvents: number; errorType?: string; message?: string }
  | { kind: 'malformed-json' }
  | { kind: 'malformed-sse'; afterEvents: number };

export type FaultKind = Fault['kind'];

export interface Simulator {
  readonly url: string;
  readonly port: number;
  /** The OAuth token endpoint a Vertex service account's `token_uri` names: `{url}/token`. */
  readonly tokenUrl: string;
  readonly received: RecordedRequest[];
  setOptions(partial: Partial<SimulatorOptions>): void;
  /**
   * The next `count` (default 1) model calls (messages, count_tokens, Bedrock invoke, Vertex
   * rawPredict) get the fault; with `account`, only calls of that account (by id).
   */
  injectFault(fault: Fault, count?: number, account?: string): void;
  clearFaults(): void;
  /** Moves the simulator's clock ahead: rate limits refill, cached prefixes and access tokens age. */
  advanceClock(ms: number): void;
  /** Refills an account's rate limits and empties its prompt cache; every account without an id. */
  resetAccounts(id?: string): void;
  /** Sockets currently open to the simulator (for leak tests: the gateway must close what it opened). */
  openConnections(): number;
  /** Bytes handed to client sockets so far (live and closed), so tests can see the upstream pause under backpressure. */
  bytesWritten(): number;
  /** Closes the server and every socket. */
  close(): Promise<void>;
}

export type StartOptions = SimulatorOptions & AccountOptions & { port?: number; host?: string };

/** Options with every default applied; what the request handlers read. */
export interface ResolvedOptions {
  ttftMs: number;
  tokensPerSecond: number;
  replyTokens: number;
  streamChunkBytes: number | undefined;
  inputMultiplier: number;
  apiKey: string | undefined;
  record: boolean;
  models: ModelInfo[];
}

/** An error answer in the provider's shape, before a request id is attached. */
export interface ApiFailure {
  status: number;
  type: string;
  message: string;
  retryAfter?: number;
}
