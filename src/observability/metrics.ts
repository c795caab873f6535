// The gateway's Prometheus metrics: every metric name lives in this file (grafana/ queries them).
// Names follow Prometheus conventions (prefix `model_gateway_`, base units, `_total` counters,
// `_seconds` histograms); the model-specific series carry the meaning of the OpenTelemetry GenAI
// metrics (request duration, time to first token, time per output token, token usage by type).
//
// Labels are bounded: surface, model (catalogue ids, else `other`), customer, status class and a
// few fixed enums. Never a key, a raw path or a string a client chose.
//
// Multi-process: each process keeps its own Registry; every metric declares how it aggregates,
// so a node:cluster primary can later serve prom-client's AggregatorRegistry.clusterMetrics().
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Metric, OpenMetricsContentType } from 'prom-client';
import type { RequestCost } from '../metering/cost.js';
import {
  REQUEST_DURATION_BUCKETS,
  TIME_PER_OUTPUT_TOKEN_BUCKETS,
  TIME_TO_FIRST_TOKEN_BUCKETS,
  UPSTREAM_HEADERS_BUCKETS,
} from './buckets.js';
import { cappedLabel, fixedLabel, ROUTE_NAME, runtimeSetLabel } from './label-bounds.js';
import { CollectedGaugeFamily, CounterFamily, GaugeFamily, HistogramFamily, type CounterCell, type Sample } from './metric-families.js';
import { RequestSeries } from './request-series.js';
import { OUTCOMES, SURFACES, type RequestObservation, type Surface } from './request-observation.js';
import { SpendSeries } from './spend-series.js';

export type UpstreamErrorKind = 'connect' | 'timeout' | 'status' | 'reset' | 'protocol';
/** 'upstream': every route of the model was at its provider's rate limit. */
export type RateLimitScope = 'key' | 'customer' | 'auth' | 'upstream';
export type CircuitState = 'closed' | 'open' | 'half_open';
export type SharedStore = 'redis' | 'postgres';

export const UPSTREAM_ERROR_KINDS: readonly UpstreamErrorKind[] = ['connect', 'timeout', 'status', 'reset', 'protocol'];
export const AUTH_FAILURE_REASONS = ['missing', 'malformed', 'unknown', 'revoked', 'expired', 'unavailable', 'throttled'] as const;
export const RATE_LIMIT_SCOPES: readonly RateLimitScope[] = ['key', 'customer', 'auth', 'upstream'];
/** Why a span never reached the collector: the export queue was full, or sending its batch failed. */
export type SpanDropReason = 'queue_full' | 'export_failed';
export const SPAN_DROP_REASONS: readonly SpanDropReason[] = ['queue_full', 'export_failed'];
export const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half_open'];

/** How one attempt on a route ended: its answer's class, or how it failed. */
export type RouteAttemptOutcome = 'ok' | 'client_error' | 'rate_limited' | 'auth_failed' | 'upstream_error' | 'connect' | 'timeout' | 'reset' | 'protocol' | 'credential';
export const ROUTE_ATTEMPT_OUTCOMES: readonly RouteAttemptOutcome[] = ['ok', 'client_error', 'rate_limited', 'auth_failed', 'upstream_error', 'connect', 'timeout', 'reset', 'protocol', 'credential'];

/** A route's state at a scrape. */
export interface RouteReading {
  readonly route: string;
  readonly provider: string;
  /** Why it is left out now, or null when it may be tried. */
  readonly cooling: 'throttled' | 'no_headroom' | null;
  /** The provider's last reported remaining counts, by kind (requests, tokens, …). */
  readonly headroom: Readonly<Record<string, number>> | null;
}

export const METRIC_PREFIX = 'model_gateway_';

/** Every metric name, for the dashboard and its tests. */
export const METRIC_NAMES = {
  requests: 'model_gateway_requests_total',
  requestDuration: 'model_gateway_request_duration_seconds',
  upstreamTimeToHeaders: 'model_gateway_upstream_time_to_headers_seconds',
  timeToFirstToken: 'model_gateway_time_to_first_token_seconds',
  timePerOutputToken: 'model_gateway_time_per_output_token_seconds',
  tokens: 'model_gateway_tokens_total',
  inFlight: 'model_gateway_in_flight_requests',
  openStreams: 'model_gateway_open_streams',
  upstreamErrors: 'model_gateway_upstream_errors_total',
  authFailures: 'model_gateway_auth_failures_total',
  rateLimited: 'model_gateway_rate_limited_requests_total',
  loadShed: 'model_gateway_load_shed_requests_total',
  translationWarnings: 'model_gateway_translation_warnings_total',
  keyCacheLookups: 'model_gateway_key_cache_lookups_total',
  upstreamRetries: 'model_gateway_upstream_retries_total',
  circuitBreakerState: 'model_gateway_circuit_breaker_state',
  sharedStoreUp: 'model_gateway_shared_store_up',
  rateLimitFallbacks: 'model_gateway_rate_limit_fallback_decisions_total',
  spend: 'model_gateway_spend_microdollars_total',
  // The database and the usage kept while it does not answer (store-metrics.ts).
  dbPoolConnections: 'model_gateway_db_pool_connections',
  dbPoolWaiting: 'model_gateway_db_pool_waiting_calls',
  dbCallErrors: 'model_gateway_db_call_errors_total',
  usageBuffered: 'model_gateway_usage_buffered_rows',
  usageSpilled: 'model_gateway_usage_spilled_rows',
  usageDropped: 'model_gateway_usage_dropped_rows_total',
  unpricedRequests: 'model_gateway_unpriced_requests_total',
  budgetUtilisation: 'model_gateway_budget_utilisation_ratio',
  budgetExceeded: 'model_gateway_budget_exceeded_requests_total',
  traceSpansDropped: 'model_gateway_trace_spans_dropped_total',
  // Upstream routes (src/policy/routing): attempts, cool-downs, headroom; their breakers are circuitBreakerState.
  routeAttempts: 'model_gateway_route_attempts_total',
  routeCooling: 'model_gateway_route_cooling_state',
  routeHeadroom: 'model_gateway_route_headroom_remaining',
} as const;

export type BudgetScope = 'key' | 'customer';
/** What happened to a request past a budget: refused (hard) or let through and flagged (soft). */
export type BudgetAction = 'refused' | 'flagged';
export const BUDGET_SCOPES: readonly BudgetScope[] = ['key', 'customer'];
export const BUDGET_ACTIONS: readonly BudgetAction[] = ['refused', 'flagged'];

export interface GatewayMetrics {
  readonly registry: Registry;
  requestStarted(surface: Surface): void;
  requestFinished(o: RequestObservation): void;
  /** A metered request's cost, by the model that answered and the customer name (or `none`). */
  spent(model: string, customer: string, cost: RequestCost): void;
  streamOpened(surface: Surface): void;
  streamClosed(surface: Surface): void;
  upstreamError(kind: UpstreamErrorKind): void;
  /** Bounded set: missing|malformed|unknown|revoked|expired|unavailable|throttled (else `other`). */
  authFailure(reason: string): void;
  rateLimited(surface: Surface, scope: RateLimitScope): void;
  /** A category such as `ignored_field` or `temperature_clamped`, never a client's field name. */
  translationWarning(kind: string): void;
  keyCache(hit: boolean): void;
  retry(reason: string): void;
  /** `route`: the route whose circuit breaker changed (one per route; named by the model on a gateway without providers). */
  circuitState(route: string, state: CircuitState): void;
  /** One attempt on an upstream route ended. */
  routeAttempt(route: string, provider: string, outcome: RouteAttemptOutcome): void;
  /** Where the routes' cool-downs and headroom are read at each scrape. */
  watchRoutes(read: () => readonly RouteReading[]): void;
  loadShed(surface: Surface): void;
  /** A shared store (Redis, PostgreSQL) answering (true) or skipped (false). */
  sharedStoreUp(store: SharedStore, up: boolean): void;
  /** A rate-limit decision taken by this instance alone, with its share, because Redis was not answering. */
  rateLimitFallback(): void;
  /** A customer budget's spent share of its amount in the current period (1 = all spent), by customer name and period. */
  budgetUtilisation(customer: string, period: string, ratio: number): void;
  /** A request past a budget: refused by a hard one, flagged by a soft one. */
  budgetExceeded(scope: BudgetScope, action: BudgetAction): void;
  /** Spans that were never exported (tracing on only). */
  traceSpansDropped(reason: SpanDropReason, spans: number): void;
  /**
   * The exposition: Prometheus text, or OpenMetrics (`openMetrics`), the only format that carries the
   * histograms' exemplars.
   */
  render(openMetrics?: boolean): Promise<{ contentType: string; body: string }>;
}

export interface MetricsOptions {
  knownModels: () => ReadonlySet<string>;
  knownCustomers?: () => ReadonlySet<string>;
  /** Event-loop lag, heap, GC, handles, CPU, memory (prefixed `model_gateway_`). Default true. */
  collectProcessMetrics?: boolean;
}

// Caps for label sets learnt at run time (see label-bounds.ts).
const MAX_CUSTOMERS_WITHOUT_LIST = 1000;
const MAX_WARNING_KINDS = 32;
const MAX_RETRY_REASONS = 16;
// The breakers cap their routes (catalogue models) at 256 themselves; this is the metric's own net.
const MAX_CIRCUIT_ROUTES = 256;

export function createMetrics(opts: MetricsOptions): GatewayMetrics {
  const registry = new Registry();
  const surfaceOf = fixedLabel(SURFACES);

  const requestFamilies = {
    requests: new CounterFamily(
      METRIC_NAMES.requests,
      'Requests answered, by surface, model, customer, HTTP status class and outcome.',
      ['surface', 'model', 'customer', 'status_class', 'outcome'],
    ).registerIn(registry),
    duration: new HistogramFamily(
      METRIC_NAMES.requestDuration,
      'Arrival to last byte sent (GenAI request duration), by surface, model and outcome.',
      ['surface', 'model', 'outcome'],
      REQUEST_DURATION_BUCKETS,
    ).registerIn(registry),
    upstreamHeaders: new HistogramFamily(
      METRIC_NAMES.upstreamTimeToHeaders,
      'Arrival to upstream response headers, by surface and model.',
      ['surface', 'model'],
      UPSTREAM_HEADERS_BUCKETS,
    ).registerIn(registry),
    ttft: new HistogramFamily(
      METRIC_NAMES.timeToFirstToken,
      'Streams: arrival to the first generated token (GenAI time to first token).',
      ['surface', 'model'],
      TIME_TO_FIRST_TOKEN_BUCKETS,
    ).registerIn(registry),
    tpot: new HistogramFamily(
      METRIC_NAMES.timePerOutputToken,
      'Successful streams: generation time per output token after the first (GenAI time per output token).',
      ['surface', 'model'],
      TIME_PER_OUTPUT_TOKEN_BUCKETS,
    ).registerIn(registry),
    tokens: new CounterFamily(
      METRIC_NAMES.tokens,
      'Tokens reported by the upstream, by type (input = uncached input), model and customer.',
      ['type', 'model', 'customer'],
    ).registerIn(registry),
  };
  const modelOf = runtimeSetLabel(opts.knownModels, ['other'], 0);
  const customerOf = runtimeSetLabel(opts.knownCustomers, ['none', 'other'], MAX_CUSTOMERS_WITHOUT_LIST);
  const series = new RequestSeries(requestFamilies, { surface: surfaceOf, model: modelOf, customer: customerOf, outcome: fixedLabel(OUTCOMES) });
  const spend = new SpendSeries(
    new CounterFamily(METRIC_NAMES.spend, 'What metered requests cost at the model prices, in millionths of a USD, by model and customer.', ['model', 'customer']).registerIn(registry),
    new CounterFamily(METRIC_NAMES.unpricedRequests, 'Metered requests to a model without a price, counted at zero cost, by model.', ['model']).registerIn(registry),
    { model: modelOf, customer: customerOf },
  );

  const budgetUtilisation = new GaugeFamily(
    METRIC_NAMES.budgetUtilisation,
    'Spent share of a customer budget in its current period (1 = all spent), by customer and period (day, month, total).',
    ['customer', 'period'],
    'max',
  ).registerIn(registry);
  const budgetExceeded = new CounterFamily(METRIC_NAMES.budgetExceeded, 'Requests past a spend budget, by budget scope and action (refused: hard, flagged: soft).', ['scope', 'action']).registerIn(registry);
  for (const scope of BUDGET_SCOPES) for (const action of BUDGET_ACTIONS) budgetExceeded.child(scope, action);
  const budgetScopeOf = fixedLabel(BUDGET_SCOPES);
  const budgetActionOf = fixedLabel(BUDGET_ACTIONS);
  const budgetPeriodOf = fixedLabel(['day', 'month', 'total']);

  const inFlight = new GaugeFamily(METRIC_NAMES.inFlight, 'Requests being handled now, by surface.', ['surface']).registerIn(registry);
  const openStreams = new GaugeFamily(METRIC_NAMES.openStreams, 'Streamed responses open now, by surface.', ['surface']).registerIn(registry);
  const inFlightBySurface = childrenOf(SURFACES, (s) => inFlight.child(s));
  const streamsBySurface = childrenOf(SURFACES, (s) => openStreams.child(s));

  const events = createEventCounters(registry, surfaceOf);
  if (opts.collectProcessMetrics !== false) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });

  return {
    registry,
    requestStarted: (surface) => inFlightBySurface.get(surfaceOf(surface))!.inc(),
    requestFinished: (o) => {
      inFlightBySurface.get(surfaceOf(o.surface))!.dec();
      series.observe(o);
    },
    spent: (model, customer, cost) => spend.observe(model, customer, cost),
    budgetUtilisation: (customer, period, ratio) => budgetUtilisation.child(customerOf(customer), budgetPeriodOf(period)).set(ratio),
    budgetExceeded: (scope, action) => budgetExceeded.child(budgetScopeOf(scope), budgetActionOf(action)).inc(),
    streamOpened: (surface) => streamsBySurface.get(surfaceOf(surface))!.inc(),
    streamClosed: (surface) => streamsBySurface.get(surfaceOf(surface))!.dec(),
    ...events,
    render: async (openMetrics = false) => {
      if (!openMetrics) return { contentType: registry.contentType, body: await registry.metrics() };
      const om = openMetricsView(registry);
      return { contentType: om.contentType, body: await om.metrics() };
    },
  };
}

/**
 * The same metrics in an OpenMetrics registry, for one scrape. prom-client renames a counter it renders
 * as OpenMetrics (it drops `_total` from the metric's own name), so the registry gets stand-ins that
 * read the real metrics, never the metrics themselves: the Prometheus text keeps its names.
 */
function openMetricsView(registry: Registry): Registry<OpenMetricsContentType> {
  const view = new Registry<OpenMetricsContentType>();
  view.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  type Readable = { name: string; help: string; type: string; aggregator: string; get(): Promise<object> };
  for (const m of registry.getMetricsAsArray() as unknown as Readable[]) {
    // The snapshot carries the name the exposition prints: the stand-in's, as the registry renamed it.
    const standIn: Readable = { name: m.name, help: m.help, type: m.type, aggregator: m.aggregator, get: async () => ({ ...(await m.get()), name: standIn.name }) };
    view.registerMetric(standIn as unknown as Metric);
  }
  return view;
}

type EventMethods = Pick<
  GatewayMetrics,
  | 'upstreamError'
  | 'authFailure'
  | 'rateLimited'
  | 'translationWarning'
  | 'keyCache'
  | 'retry'
  | 'circuitState'
  | 'loadShed'
  | 'sharedStoreUp'
  | 'rateLimitFallback'
  | 'traceSpansDropped'
  | 'routeAttempt'
  | 'watchRoutes'
>;

// Rarer events. Fixed label sets are bound up front, so their series exist at zero and rate()
// sees the first event.
function createEventCounters(registry: Registry, surfaceOf: (s: string) => string): EventMethods {
  const counter = (name: string, help: string, labelNames: string[]) => new CounterFamily(name, help, labelNames).registerIn(registry);
  const upstreamErrors = counter(METRIC_NAMES.upstreamErrors, 'Failed upstream calls, by kind.', ['kind']);
  const authFailures = counter(METRIC_NAMES.authFailures, 'Requests refused by authentication, by reason.', ['reason']);
  const rateLimited = counter(METRIC_NAMES.rateLimited, 'Requests refused with 429, by surface and limit scope.', ['surface', 'scope']);
  const loadShed = counter(METRIC_NAMES.loadShed, 'Requests refused with 503 because too many were in flight.', ['surface']);
  const warnings = counter(METRIC_NAMES.translationWarnings, 'Changes the translation made to a request, by kind.', ['kind']);
  const keyCache = counter(METRIC_NAMES.keyCacheLookups, 'Gateway-key cache lookups, by result (hit or miss).', ['result']);
  const retries = counter(METRIC_NAMES.upstreamRetries, 'Upstream calls retried, by reason.', ['reason']);
  const circuit = new GaugeFamily(
    METRIC_NAMES.circuitBreakerState,
    'Circuit breaker state per model route: 1 for the current state, 0 for the others.',
    ['route', 'state'],
    'max',
  ).registerIn(registry);

  // 'min' across cluster workers: one worker that lost Redis makes the store read as down.
  const storeUp = new GaugeFamily(METRIC_NAMES.sharedStoreUp, 'A shared store answering (1) or skipped while unreachable (0).', ['store'], 'min').registerIn(registry);
  const fallbacks = counter(METRIC_NAMES.rateLimitFallbacks, 'Rate-limit decisions taken with this instance\'s share of the limits because Redis was not answering.', []).child();
  const spansDropped = counter(METRIC_NAMES.traceSpansDropped, 'Trace spans never exported, by reason: the export queue was full, or the collector did not take the batch.', ['reason']);
  const spansDroppedBy = childrenOf(SPAN_DROP_REASONS, (r) => spansDropped.child(r));
  const routeAttempts = counter(METRIC_NAMES.routeAttempts, 'Attempts on each upstream route, by how they ended (ok, client_error, rate_limited, auth_failed, upstream_error, or a failure kind).', ['route', 'provider', 'outcome']);
  const attemptCellsByRoute = new Map<string, Map<RouteAttemptOutcome, CounterCell>>();
  const routeCooling = new CollectedGaugeFamily(METRIC_NAMES.routeCooling, 'Upstream routes left out until their provider is ready again: 1 while cooling down, by reason (throttled: a 429 or throttling answer, or a stream broken off by one or by an overload; no_headroom: a rate limit reported at 0).', ['route', 'provider', 'reason']).registerIn(registry);
  const routeHeadroom = new CollectedGaugeFamily(METRIC_NAMES.routeHeadroom, "What each route's provider last reported left of its rate limits, by kind (requests, tokens, input-tokens, output-tokens).", ['route', 'provider', 'kind'], 'min').registerIn(registry);

  for (const kind of UPSTREAM_ERROR_KINDS) upstreamErrors.child(kind);
  for (const reason of AUTH_FAILURE_REASONS) authFailures.child(reason);
  for (const s of SURFACES) {
    loadShed.child(s);
    for (const scope of RATE_LIMIT_SCOPES) rateLimited.child(s, scope);
  }
  const hit = keyCache.child('hit');
  const miss = keyCache.child('miss');

  const errorKindOf = fixedLabel(UPSTREAM_ERROR_KINDS);
  const reasonOf = fixedLabel(AUTH_FAILURE_REASONS);
  const scopeOf = fixedLabel(RATE_LIMIT_SCOPES);
  const warningOf = cappedLabel(MAX_WARNING_KINDS);
  const retryOf = cappedLabel(MAX_RETRY_REASONS);
  const routeOf = cappedLabel(MAX_CIRCUIT_ROUTES, ROUTE_NAME);
  const stateOf = fixedLabel(CIRCUIT_STATES);
  const attemptOutcomeOf = fixedLabel(ROUTE_ATTEMPT_OUTCOMES);

  return {
    upstreamError: (kind) => upstreamErrors.child(errorKindOf(kind)).inc(),
    authFailure: (reason) => authFailures.child(reasonOf(reason)).inc(),
    rateLimited: (surface, scope) => rateLimited.child(surfaceOf(surface), scopeOf(scope)).inc(),
    loadShed: (surface) => loadShed.child(surfaceOf(surface)).inc(),
    translationWarning: (kind) => warnings.child(warningOf(kind)).inc(),
    keyCache: (isHit) => (isHit ? hit : miss).inc(),
    retry: (reason) => retries.child(retryOf(reason)).inc(),
    sharedStoreUp: (store, up) => storeUp.child(store).set(up ? 1 : 0),
    rateLimitFallback: () => fallbacks.inc(),
    traceSpansDropped: (reason, spans) => spansDroppedBy.get(reason)?.inc(spans),
    routeAttempt: (route, provider, outcome) => {
      // Every request makes at least one attempt: its cell is kept by route and outcome, so the family's
      // lookup (a key joined from the three labels, hashed anew each time) runs once per series. A
      // route's name always names the same provider.
      let cells = attemptCellsByRoute.get(route);
      if (cells === undefined) attemptCellsByRoute.set(route, (cells = new Map()));
      let cell = cells.get(outcome);
      if (cell === undefined) cells.set(outcome, (cell = routeAttempts.child(routeOf(route), provider, attemptOutcomeOf(outcome))));
      cell.inc();
    },
    watchRoutes: (read) => {
      routeCooling.collectFrom(() => {
        const samples: Sample[] = [];
        for (const r of read()) for (const reason of ['throttled', 'no_headroom'] as const) samples.push({ labels: { route: r.route, provider: r.provider, reason }, value: r.cooling === reason ? 1 : 0 });
        return samples;
      });
      routeHeadroom.collectFrom(() => {
        const samples: Sample[] = [];
        for (const r of read()) if (r.headroom !== null) for (const kind in r.headroom) samples.push({ labels: { route: r.route, provider: r.provider, kind }, value: r.headroom[kind]! });
        return samples;
      });
    },
    circuitState: (route, state) => {
      const name = routeOf(route);
      const current = stateOf(state);
      for (const s of CIRCUIT_STATES) circuit.child(name, s).set(s === current ? 1 : 0);
    },
  };
}

function childrenOf<C>(values: readonly string[], make: (value: string) => C): Map<string, C> {
  return new Map(values.map((v) => [v, make(v)]));
}
