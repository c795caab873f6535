// Public shapes of the provider simulator. index.ts re-exports them; other modules of the
// simulator import from here so that index.ts stays a thin facade.
import type { IncomingHttpHeaders } from 'node:http';
import type { ModelInfo } from '../../dialects/anthropic/wire.js';

export interface SimulatorOptions {
  /** Delay before the response headers and the first event (default 0). */
  ttftMs?: number;
  /** Pacing of streamed deltas; 0 = as fast as possible (default 0). */
  tokensPerSecond?: number;
  /** Length of a text reply in tokens (words) when max_tokens allows (default 12). */
  replyTokens?: number;
  /** When set, the credential (x-api-key or Bearer) must equal it; when unset any non-empty one is accepted. */
  apiKey?: string;
  /** Keep RecordedRequest entries in `received` (default false). */
  record?: boolean;
  /** The models list it serves and validates against (default: the catalogue's default models). */
  models?: ModelInfo[];
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
  readonly received: RecordedRequest[];
  setOptions(partial: Partial<SimulatorOptions>): void;
  /** The next `count` (default 1) messages or count_tokens requests get the fault. */
  injectFault(fault: Fault, count?: number): void;
  clearFaults(): void;
  /** Sockets currently open to the simulator (for leak tests: the gateway must close what it opened). */
  openConnections(): number;
  /** Bytes handed to client sockets so far (live and closed), so tests can see the upstream pause under backpressure. */
  bytesWritten(): number;
  /** Closes the server and every socket. */
  close(): Promise<void>;
}

export type StartOptions = SimulatorOptions & { port?: number; host?: string };

/** Options with every default applied; what the request handlers read. */
export interface ResolvedOptions {
  ttftMs: number;
  tokensPerSecond: number;
  replyTokens: number;
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
