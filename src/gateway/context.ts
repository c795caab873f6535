// RequestContext: the one object every stage of a request shares.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { CatalogModel } from '../catalog/model.js';
import type { ErrorFormat } from '../dialects/errors/render.js';
import type { Principal } from '../keys/key-cache.js';
import type { TokenUsage } from '../metering/token-usage.js';
import { emptyUsage } from '../metering/token-usage.js';
import type { RequestCost } from '../metering/cost.js';
import type { Outcome, Surface } from '../observability/request-observation.js';
import type { RequestTrace } from '../observability/tracing/request-trace.js';
import { NO_TRACE } from '../observability/tracing/request-trace.js';
import type { AnswerFacts } from '../dialects/translators/translator.js';
import type { DialectCall } from '../policy/routing/router.js';
import type { Route } from '../policy/routing/route.js';
import type { ProviderDialect } from '../dialects/translators/translator.js';
import { Cancellation } from '../upstream/cancellation.js';
import type { UpstreamResponse } from '../upstream/exchange.js';
import type { TranslationWarning } from '../dialects/translators/chat-to-anthropic/request.js';

export interface RouteInfo {
  /** Route template, safe as a log field and metrics label (never the raw path). */
  readonly name: string;
  readonly surface: Surface;
  readonly errorFormat: ErrorFormat;
  /** The route counts tokens instead of generating them (count_tokens): it costs nothing, so no budget is reserved. */
  readonly countsTokens?: boolean;
  /** Headers every answer of this route carries, errors and 405s included: set before any stage runs. */
  readonly fixedHeaders?: Readonly<Record<string, string>>;
}

export interface RequestContext {
  readonly id: string;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /**
   * The response's headers, collected by the stages and written once, by whichever stage answers,
   * as the one object given to writeHead: res.setHeader per header costs a validation and a copy each.
   */
  readonly headers: OutgoingHttpHeaders;
  readonly route: RouteInfo;
  /** performance.now() at arrival. */
  readonly startedAt: number;
  /** Cancelled when the client goes away before the response is complete; stops the upstream call. */
  readonly cancellation: Cancellation;
  /** The raw query string including its leading '?', or ''. */
  readonly query: string;
  principal: Principal | null;
  body: Buffer | null;
  /** The parsed body (a JSON object), for routes that read it: stages after the parse stage use parsedBody(ctx). */
  json: Record<string, unknown> | null;
  /** The request for the requested model in the provider dialect: made by the translation stage. */
  call: DialectCall | null;
  /**
   * The request for another model or provider dialect, translated again from the client's (a
   * fallback, a route of another type); null where no other model may answer (count_tokens).
   */
  callFor: ((model: CatalogModel, dialect: ProviderDialect) => DialectCall | null) | null;
  /** Orders the model's routes: a hash of the key and the session the request names, else random. */
  seed: number;
  /** The request names a session: `seed` is its hash. */
  session: boolean;
  /** The route whose answer the client gets. */
  servedRoute: Route | null;
  /** On a 429: when the earliest route of the request may be tried again (epoch ms), for retry-after. */
  retryAt: number | null;
  upstreamResponse: UpstreamResponse | null;
  /** The requested model name as the client wrote it. */
  requestedModel: string | null;
  model: CatalogModel | null;
  stream: boolean;
  /** Chat surface: the client asked for the final usage chunk (stream_options.include_usage). */
  includeUsage: boolean;
  usage: TokenUsage;
  /** True once the upstream reported any usage, so metering knows whether a record is meaningful. */
  usageSeen: boolean;
  /** True when `usage` was estimated by the gateway (a cancelled stream: docs/spend.md), not all reported. */
  usageEstimated: boolean;
  outcome: Outcome | null;
  /** performance.now() when the call that answered was dispatched, and when its headers came. */
  upstreamSentAt: number | null;
  upstreamHeadersAt: number | null;
  firstTokenAt: number | null;
  warnings: readonly TranslationWarning[];
  /** The catalogue model that served the request when a fallback did (null: `model` itself). */
  servedModel: CatalogModel | null;
  /** The request's cost once the answer is done (served-cost.ts computes it once; null until then). */
  cost: RequestCost | null;
  /** The request's server span (the shared no-op when tracing is off or the route is not a model's). */
  trace: RequestTrace;
  /** Why the request failed, as its span's `error.type` (null: no failure, or one the status says). */
  errorType: string | null;
  /** What the provider's answer says of itself (id, model, finish reason): gathered only for a sampled span. */
  answer: AnswerFacts | null;
}

export function createContext(
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
  route: RouteInfo,
  query: string,
  startedAt: number,
): RequestContext {
  return {
    id,
    req,
    res,
    headers: {},
    route,
    startedAt,
    cancellation: new Cancellation(),
    query,
    principal: null,
    body: null,
    json: null,
    call: null,
    callFor: null,
    seed: 0,
    session: false,
    servedRoute: null,
    retryAt: null,
    upstreamResponse: null,
    requestedModel: null,
    model: null,
    stream: false,
    includeUsage: false,
    usage: emptyUsage(),
    usageSeen: false,
    usageEstimated: false,
    outcome: null,
    upstreamSentAt: null,
    upstreamHeadersAt: null,
    firstTokenAt: null,
    warnings: [],
    servedModel: null,
    cost: null,
    trace: NO_TRACE,
    errorType: null,
    answer: null,
  };
}

/** The body the parse stage put on the context; a route that reads it without parsing first is a bug. */
export function parsedBody(ctx: RequestContext): Record<string, unknown> {
  if (ctx.json === null) throw new Error(`${ctx.route.name}: a stage read the body before any stage parsed it`);
  return ctx.json;
}
