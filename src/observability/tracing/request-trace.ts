// What the request path knows of tracing: a small interface of the gateway's own, so that with tracing
// off no OpenTelemetry module is loaded at all (the SDK is imported at start-up, only when an endpoint
// is set: otel/start-tracing.ts) and a request costs one call that hands back a shared no-op.
//
// A model request is one SERVER span (opened on arrival, ended when the response, a stream included,
// is over); every upstream attempt of it (retries, failovers, fallbacks) is one CLIENT span under it,
// whose context is sent upstream as `traceparent`.
import type { IncomingHttpHeaders } from 'node:http';
import type { TokenUsage } from '../../metering/token-usage.js';

/** `error.type` values besides an upstream status as a string (`"529"`). */
export type TraceErrorType = 'timeout' | 'connection_error' | 'stream_interrupted' | 'client_cancelled';

/** How an attempt ended: the upstream's status, or what kept it from answering. */
export type AttemptResult = number | TraceErrorType;

export interface AttemptTrace {
  /** Puts the attempt's `traceparent` (and `tracestate`) into the upstream request's headers, replacing any there. */
  inject(headers: Record<string, string>): void;
  end(result: AttemptResult): void;
}

/** What the server span records once the response is over. */
export interface RequestFacts {
  /** performance.now() when the response was over. */
  endedAt: number;
  surface: string;
  /** The catalogue model asked for (or the name the client wrote when there is none). */
  requestModel: string | null;
  /** The model the provider says answered; else the catalogue model that served. */
  responseModel: string | null;
  responseId: string | null;
  finishReason: string | null;
  maxTokens: number | null;
  temperature: number | null;
  usage: TokenUsage | null;
  status: number;
  errorType: string | null;
  customer: string | null;
  keyId: string | null;
  /** The provider route that answered, and its GenAI provider name (null: no attempt was made). */
  route: string | null;
  provider: string | null;
  /** performance.now() of the first generated token, or null. */
  firstTokenAt: number | null;
}

export interface RequestTrace {
  /** The span is sampled: its facts are worth gathering. False for the no-op. */
  readonly recording: boolean;
  /** The trace id (32 hex digits) of a sampled span, for exemplars; null otherwise. */
  readonly traceId: string | null;
  /** `route`: the provider route's id; `provider`: its gen_ai.provider.name; `model`: what this attempt asks for. */
  attempt(route: string, provider: string, model: string | null): AttemptTrace;
  end(facts: RequestFacts): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Opens the server span of a model request that arrived at `startedAt` (performance.now()), continuing the client's trace context. */
  startRequest(headers: IncomingHttpHeaders, startedAt: number): RequestTrace;
  /** Sends what is queued, within `timeoutMs`, and stops. */
  shutdown(timeoutMs: number): Promise<void>;
}

const NO_ATTEMPT: AttemptTrace = Object.freeze({ inject() {}, end() {} });

/** The request trace of a request nobody traces: one shared object, so it costs nothing. */
export const NO_TRACE: RequestTrace = Object.freeze({
  recording: false,
  traceId: null,
  attempt: () => NO_ATTEMPT,
  end() {},
});

export const NO_TRACING: Tracing = Object.freeze({
  enabled: false,
  startRequest: () => NO_TRACE,
  shutdown: async () => {},
});
