// The spans of one model request, on the OpenTelemetry SDK: the SERVER span named
// `{gen_ai.operation.name} {gen_ai.request.model}` with the GenAI semantic conventions' attributes and
// the gateway's own `model_gateway.*`, and one CLIENT span per upstream attempt under it. Attributes
// are set once, when a span ends, and only on a sampled span: an unsampled request pays for its ids alone.
import type { Context, Span, TextMapPropagator, Tracer } from '@opentelemetry/api';
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';
import type { AttemptResult, AttemptTrace, RequestFacts, RequestTrace } from '../request-trace.js';

/** `gen_ai.operation.name` on every surface: each is a chat completion in the conventions' terms. */
export const OPERATION = 'chat';

export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  maxTokens: 'gen_ai.request.max_tokens',
  temperature: 'gen_ai.request.temperature',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  status: 'http.response.status_code',
  errorType: 'error.type',
  customer: 'model_gateway.customer',
  keyId: 'model_gateway.key_id',
  surface: 'model_gateway.surface',
  route: 'model_gateway.route',
} as const;

export const FIRST_TOKEN_EVENT = 'gen_ai.first_token';

const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

/**
 * `{operation} {model}`, made once per model: a name built per span is a rope that the exporter's
 * serialiser, reading it char by char, flattens through a runtime call every time; a cached one is
 * flattened once, by its first export. Client-written
 * names (an unknown model) are as many as clients invent, so the cache stops growing at a bound.
 */
const SPAN_NAMES = new Map<string, string>();
const SPAN_NAMES_MAX = 1024;

function spanName(model: string): string {
  let name = SPAN_NAMES.get(model);
  if (name === undefined) {
    name = `${OPERATION} ${model}`;
    if (SPAN_NAMES.size < SPAN_NAMES_MAX) SPAN_NAMES.set(model, name);
  }
  return name;
}

export class OtelRequestTrace implements RequestTrace {
  readonly recording: boolean;
  readonly traceId: string | null;
  private readonly context: Context;
  /** The route and provider of the latest attempt: named by the server span when no route answered. */
  private route: string | null = null;
  private provider: string | null = null;

  constructor(
    private readonly tracer: Tracer,
    private readonly propagator: TextMapPropagator,
    private readonly span: Span,
  ) {
    this.recording = span.isRecording();
    this.traceId = this.recording ? span.spanContext().traceId : null;
    this.context = trace.setSpan(ROOT_CONTEXT, span);
  }

  static start(tracer: Tracer, propagator: TextMapPropagator, headers: IncomingHttpHeaders, startedAt: number): OtelRequestTrace {
    // The client's traceparent/tracestate, when it sent a valid one, make this span its child.
    const parent = headers.traceparent === undefined ? ROOT_CONTEXT : propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const span = tracer.startSpan(OPERATION, { kind: SpanKind.SERVER, startTime: startedAt }, parent);
    return new OtelRequestTrace(tracer, propagator, span);
  }

  attempt(route: string, provider: string, model: string | null): AttemptTrace {
    this.route = route;
    this.provider = provider;
    const span = this.tracer.startSpan(model === null ? OPERATION : spanName(model), { kind: SpanKind.CLIENT }, this.context);
    return new OtelAttempt(span, this.propagator, route, provider, model);
  }

  end(f: RequestFacts): void {
    const span = this.span;
    if (!this.recording) {
      span.end(f.endedAt);
      return;
    }
    if (f.requestModel !== null) span.updateName(spanName(f.requestModel));
    // One setAttribute per attribute, straight into the span: building an object of computed keys for
    // setAttributes cost a runtime call per key, then a for-in over it (bench/tools/instructions.ts).
    span.setAttribute(ATTR.operation, OPERATION);
    span.setAttribute(ATTR.surface, f.surface);
    span.setAttribute(ATTR.status, f.status);
    // The route that answered; the latest attempt's only when none did. They differ when the router
    // gives back an answer it kept from an earlier route (a 529 there, then a refused connection here).
    const provider = f.route !== null ? f.provider : this.provider;
    const route = f.route ?? this.route;
    if (provider !== null) span.setAttribute(ATTR.provider, provider);
    if (route !== null) span.setAttribute(ATTR.route, route);
    if (f.requestModel !== null) span.setAttribute(ATTR.requestModel, f.requestModel);
    if (f.responseModel !== null) span.setAttribute(ATTR.responseModel, f.responseModel);
    if (f.responseId !== null) span.setAttribute(ATTR.responseId, f.responseId);
    if (f.finishReason !== null) span.setAttribute(ATTR.finishReasons, [f.finishReason]);
    if (f.maxTokens !== null) span.setAttribute(ATTR.maxTokens, f.maxTokens);
    if (f.temperature !== null) span.setAttribute(ATTR.temperature, f.temperature);
    if (f.usage !== null) {
      // The conventions count every input token, those read from and written to the cache included.
      span.setAttribute(ATTR.inputTokens, f.usage.input + f.usage.cacheRead + f.usage.cacheWrite);
      span.setAttribute(ATTR.outputTokens, f.usage.output);
    }
    if (f.customer !== null) span.setAttribute(ATTR.customer, f.customer);
    if (f.keyId !== null) span.setAttribute(ATTR.keyId, f.keyId);
    if (f.errorType !== null) {
      span.setAttribute(ATTR.errorType, f.errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    if (f.firstTokenAt !== null) span.addEvent(FIRST_TOKEN_EVENT, f.firstTokenAt);
    span.end(f.endedAt);
  }
}

class OtelAttempt implements AttemptTrace {
  constructor(
    private readonly span: Span,
    private readonly propagator: TextMapPropagator,
    private readonly route: string,
    private readonly provider: string,
    private readonly model: string | null,
  ) {}

  inject(headers: Record<string, string>): void {
    // The gateway's span is now the provider's parent: a client's own trace headers go no further.
    for (const name of TRACE_HEADERS) delete headers[name];
    this.propagator.inject(trace.setSpan(ROOT_CONTEXT, this.span), headers, defaultTextMapSetter);
  }

  end(result: AttemptResult): void {
    const span = this.span;
    if (span.isRecording()) {
      span.setAttribute(ATTR.operation, OPERATION);
      span.setAttribute(ATTR.provider, this.provider);
      span.setAttribute(ATTR.route, this.route);
      if (this.model !== null) span.setAttribute(ATTR.requestModel, this.model);
      let errorType: string | null;
      if (typeof result === 'number') {
        span.setAttribute(ATTR.status, result);
        errorType = result >= 400 ? String(result) : null;
      } else {
        errorType = result;
      }
      if (errorType !== null) {
        span.setAttribute(ATTR.errorType, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    span.end();
  }
}
