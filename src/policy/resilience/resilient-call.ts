// One upstream call made resilient: retried with backoff while the provider answers with a transient
// failure (or cannot be connected to), re-addressed to the catalogue's fallback models when one model
// keeps failing or its circuit is open, and refused at once only when every route it may take is down.
// Everything here happens before the first byte goes to the client, so a retry is never visible
// except as latency.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogModel } from '../../catalog/model.js';
import type { Principal } from '../../keys/principal.js';
import type { UpstreamErrorKind } from '../../observability/metrics.js';
import type { Cancellation } from '../../upstream/cancellation.js';
import type { UpstreamFailureKind, UpstreamRequest } from '../../upstream/client.js';
import { classifyUpstreamFailure, upstreamErrorKindOf } from '../../upstream/client.js';
import type { AnswerHeaders, UpstreamResponse } from '../../upstream/exchange.js';
import { ExchangeCancelled } from '../../upstream/exchange.js';
import type { CircuitBreaker, Permit } from './circuit-breaker.js';
import { isFailureStatus } from './circuit-breaker.js';
import type { ModelLookup, ReplayableRequest } from './fallback.js';
import { fallbacksOf } from './fallback.js';
import type { RetryPolicy } from './retry-policy.js';
import { isRetryableStatus } from './retry-policy.js';
import type { RouteBreakers } from './route-breakers.js';
import type { RequestTrace } from '../../observability/tracing/request-trace.js';
import { NO_TRACE } from '../../observability/tracing/request-trace.js';
import { traceErrorTypeOf } from './trace-error.js';

export interface CallPlan {
  request: ReplayableRequest;
  /** The client going away stops the call, a pause between attempts included. */
  cancellation: Cancellation;
  /** The model addressed, whose circuit breaker the call goes through; null = no fallbacks, the shared route. */
  model: CatalogModel | null;
  /**
   * The request for a fallback model, translated again from the client's request (null: it cannot be
   * sent there). Null where another model would answer a different question (count_tokens): no fallbacks.
   */
  readdress: ((model: CatalogModel) => ReplayableRequest | null) | null;
  /** Whose key the call is for: fallbacks stay within the models it may use. */
  principal: Principal | null;
  /** The request's trace: each attempt is a span of it, whose context goes upstream (none: not traced). */
  trace?: RequestTrace;
}

export type CallOutcome =
  | { kind: 'response'; response: UpstreamResponse; model: CatalogModel | null }
  | { kind: 'failed'; failure: UpstreamFailureKind }
  | { kind: 'cancelled' }
  | { kind: 'circuit_open'; retryAfterMs: number };

export interface Dispatch {
  exchange(req: UpstreamRequest, cancellation?: Cancellation): Promise<UpstreamResponse>;
}

/** Where a model's attempts go: a provider route (src/providers), named in each attempt's trace span. */
export interface AttemptTarget {
  /** The route's id (`model_gateway.route`). */
  readonly id: string;
  /** `gen_ai.provider.name` of the provider behind it. */
  readonly genAiProvider: string;
  readonly client: Dispatch;
}

export interface CallEvents {
  retry(reason: string): void;
  upstreamError(kind: UpstreamErrorKind): void;
  fallback?(from: string, to: string, status: number): void;
}

/** What one model's attempts ended with. */
type ModelOutcome = Exclude<CallOutcome, { kind: 'response' }> | { kind: 'response'; response: UpstreamResponse; exhausted: boolean };

/** A model the request goes to, with the request addressed to it and what its breaker granted. */
interface Route {
  model: CatalogModel | null;
  request: ReplayableRequest;
  breaker: CircuitBreaker;
  permit: Exclude<Permit, null>;
}

type FallbackRoute = Route & { model: CatalogModel };

const CANCELLED = Object.freeze({ kind: 'cancelled' as const });

/** First every route that may take the request without trouble, then any that is busy but not down. */
const PASSES = [true, false] as const;

export class ResilientCaller {
  constructor(
    /** The provider that serves a model, with its connection pool (src/providers). */
    private readonly targetOf: (model: CatalogModel | null) => AttemptTarget,
    private readonly policy: RetryPolicy,
    private readonly breakers: RouteBreakers,
    private readonly catalogue: ModelLookup,
    private readonly events: CallEvents,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async call(plan: CallPlan): Promise<CallOutcome> {
    const deadline = this.now() + this.policy.deadlineMs;
    let fallbacks: CatalogModel[] | null = null;
    // Looked up only when needed: most requests are answered by the model they asked for.
    const fallbacksOfPlan = () =>
      (fallbacks ??= plan.readdress !== null && plan.model !== null ? fallbacksOf(plan.model, this.catalogue, plan.principal) : []);
    const first = this.firstRoute(plan, fallbacksOfPlan);
    if (first === null) return { kind: 'circuit_open', retryAfterMs: this.breakers.of(plan.model).retryAfterMs() };
    let route: Route = first;
    for (;;) {
      const outcome = await this.attempts(route, plan.cancellation, deadline, plan.trace ?? NO_TRACE);
      if (outcome.kind !== 'response') return outcome;
      const { response } = outcome;
      const tried = route.model;
      // A fallback whose own circuit is open is not tried: the answer in hand goes back instead.
      const next = outcome.exhausted && tried !== null ? this.fallbackRoute(plan, fallbacksOfPlan(), tried, true) : null;
      if (tried === null || next === null) return { kind: 'response', response, model: tried };
      this.events.fallback?.(tried.id, next.model.id, response.statusCode);
      discard(response);
      if (plan.cancellation.cancelled) {
        next.breaker.abandon(next.permit);
        return CANCELLED;
      }
      route = next;
    }
  }

  /**
   * Where the request goes first: its own model unless that model's circuit is open, then the first
   * fallback whose circuit is closed (or due a probe). With nowhere else to go, the first of them that
   * is busy rather than down takes it; null when every one is down: the request fails fast.
   */
  private firstRoute(plan: CallPlan, fallbacks: () => CatalogModel[]): Route | null {
    const own = this.breakers.of(plan.model);
    for (const elsewhere of PASSES) {
      const permit = own.allow(elsewhere);
      if (permit !== null) return { model: plan.model, request: plan.request, breaker: own, permit };
      const fallback = this.fallbackRoute(plan, fallbacks(), plan.model, elsewhere);
      if (fallback !== null) return fallback;
    }
    return null;
  }

  /** The first fallback after `after` (the requested model: from the start) whose breaker grants a call. */
  private fallbackRoute(plan: CallPlan, fallbacks: CatalogModel[], after: CatalogModel | null, elsewhere: boolean): FallbackRoute | null {
    const readdress = plan.readdress;
    if (readdress === null) return null;
    for (let i = after === null ? 0 : fallbacks.indexOf(after) + 1; i < fallbacks.length; i++) {
      const model = fallbacks[i];
      const request = readdress(model);
      // The client's request cannot be sent to that model.
      if (request === null) return null;
      const breaker = this.breakers.of(model);
      const permit = breaker.allow(elsewhere);
      if (permit !== null) return { model, request, breaker, permit };
    }
    return null;
  }

  /**
   * Tries one route until it answers for good, retries run out, or the deadline or its open circuit
   * stops it. The breaker learns one outcome per request: retries multiply one client's failures,
   * and a request its retries rescued was served.
   */
  private async attempts(route: Route, cancellation: Cancellation, deadline: number, trace: RequestTrace): Promise<ModelOutcome> {
    const { request, breaker, permit } = route;
    for (let attempt = 0; ; attempt++) {
      const target = this.targetOf(route.model);
      // Every attempt is a span of its own, and the provider sees that span as its parent.
      const span = trace.attempt(target.id, target.genAiProvider, route.model?.id ?? null);
      span.inject(request.headers);
      let response: UpstreamResponse;
      try {
        response = await target.client.exchange(request, cancellation);
      } catch (err) {
        const failure = classifyUpstreamFailure(err);
        span.end(traceErrorTypeOf(failure));
        if (failure === 'cancelled') return this.cancelled(route);
        this.events.upstreamError(upstreamErrorKindOf(failure));
        // Only a connection that was never made is safe to repeat: the request did not reach the provider.
        const delay = failure === 'connect' ? this.retryDelay(attempt, null, deadline, breaker) : null;
        if (delay === null) {
          breaker.report(permit, true);
          return { kind: 'failed', failure };
        }
        this.events.retry('connect');
        if (!(await pause(delay, cancellation))) return this.cancelled(route);
        continue;
      }
      const status = response.statusCode;
      span.end(status);
      if (isFailureStatus(status)) this.events.upstreamError('status');
      const retryable = isRetryableStatus(status);
      const delay = retryable ? this.retryDelay(attempt, response.headers, deadline, breaker) : null;
      if (delay === null) {
        settle(route, status);
        return { kind: 'response', response, exhausted: retryable };
      }
      this.events.retry(String(status));
      discard(response);
      if (!(await pause(delay, cancellation))) return this.cancelled(route);
    }
  }

  private cancelled(route: Route): typeof CANCELLED {
    route.breaker.abandon(route.permit);
    return CANCELLED;
  }

  /**
   * The wait before the next attempt, or null when there is none (attempts, deadline). A route whose
   * circuit is not closed gets no retries: a probe is one call, and a failing upstream is not sent more.
   */
  private retryDelay(attempt: number, headers: AnswerHeaders | null, deadline: number, breaker: CircuitBreaker): number | null {
    if (attempt + 1 >= this.policy.attempts || breaker.state !== 'closed') return null;
    const delay = this.policy.delayMs(attempt, headers);
    if (delay === null || this.now() + delay > deadline) return null;
    return delay;
  }
}

/** What an answer tells the route's breaker: 429 and the other 4xx are the upstream answering. */
function settle(route: Route, status: number): void {
  if (isFailureStatus(status)) route.breaker.report(route.permit, true);
  else if (status < 500) route.breaker.report(route.permit, false);
  else route.breaker.abandon(route.permit);
}

/** An answer that will not be used: a JSON one is already read whole; a stream is dropped. */
function discard(response: UpstreamResponse): void {
  if (response.kind === 'stream') response.body.cancel(new ExchangeCancelled());
}

/** false when the client went away during the pause. */
async function pause(ms: number, cancellation: Cancellation): Promise<boolean> {
  if (cancellation.cancelled) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal: cancellation.signal });
    return true;
  } catch {
    return false;
  }
}
