// One request's upstream call, made resilient across routes: the routes of the requested model in
// the planner's order (priority, weight, session), each failure moving on to the next route at once;
// a route tried again, after a pause, only once every other usable route of the model has had its
// try; then the catalogue's fallback models, each through its own routes. Everything here happens
// before the first byte goes to the client, so a failover is never visible except as latency.
//
// What moves a request on to another route: a connection that could not be made, a timeout or reset
// before the headers, a credential the provider refused, a 429 or a 5xx (the provider's 529 overload
// and its 504 timeout included). The same route is tried again only where repeating is safe and may help (a connection never
// made, a 429 after its cool-down, a transient status after a backoff), and never while its circuit
// is not closed. A 429 cools the route down (its `retry-after`, or the limit's reset), on every
// instance when they share Redis; an answer reporting a rate limit at 0 takes the route out of the
// order until that limit resets, before any 429.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogModel } from '../../catalog/model.js';
import type { Principal } from '../../keys/principal.js';
import type { UpstreamErrorKind } from '../../observability/metrics.js';
import { CredentialError } from '../../providers/credential-error.js';
import type { ProviderCall, ProviderDialect } from '../../providers/provider.js';
import type { Cancellation } from '../../upstream/cancellation.js';
import type { UpstreamFailureKind } from '../../upstream/client.js';
import { classifyUpstreamFailure } from '../../upstream/client.js';
import { upstreamErrorKindOf } from '../resilience/upstream-failure.js';
import type { UpstreamResponse } from '../../upstream/exchange.js';
import { ExchangeCancelled } from '../../upstream/exchange.js';
import type { Permit } from '../resilience/circuit-breaker.js';
import { isFailureStatus } from '../resilience/circuit-breaker.js';
import type { ModelLookup } from '../resilience/fallback.js';
import { fallbacksOf } from '../resilience/fallback.js';
import type { RetryPolicy } from '../resilience/retry-policy.js';
import { isRetryableStatus, retryAfterMs } from '../resilience/retry-policy.js';
import type { AttemptTrace, RequestTrace } from '../../observability/tracing/request-trace.js';
import { NO_TRACE } from '../../observability/tracing/request-trace.js';
import { traceErrorTypeOf } from '../resilience/trace-error.js';
import { coolsAfterStreamError } from './cool-down.js';
import { readHeadroom } from './headroom.js';
import { orderRoutes } from './planner.js';
import type { Route } from './route.js';
import type { CoolDown, RouteState } from './route-state.js';
import type { RouteTable } from './route-table.js';

/** A call for a model in a provider dialect, before the route (its provider and its model id) is known. */
export type DialectCall = Omit<ProviderCall, 'model' | 'modelNamed'>;

/** How an attempt ended, for the route's metrics. */
export type AttemptResult = { status: number } | { failure: UpstreamFailureKind | 'credential' };

export interface RouteRequest {
  readonly model: CatalogModel;
  /** Whose key the call is for: fallbacks stay within the models it may use. */
  readonly principal: Principal | null;
  /** Orders the routes: a session's seed keeps it on its route on every instance. */
  readonly seed: number;
  /** The seed is a session's (else the first route is the weighted round robin's). */
  readonly session: boolean;
  /** The client going away stops the call, a pause between attempts included. */
  readonly cancellation: Cancellation;
  /**
   * The call for a model in a dialect: the requested model's is translated before the router runs; a
   * fallback's is the client's request translated again (null: it cannot be sent there). Asked once
   * per attempt: each model and dialect is translated at most once per request.
   */
  callFor(model: CatalogModel, dialect: ProviderDialect): DialectCall | null;
  /** False where another model would answer a different question (count_tokens): no fallbacks. */
  readonly fallbacks: boolean;
  /** The request's trace: each attempt is a span of it, whose context goes upstream (absent: not traced). */
  readonly trace?: RequestTrace;
}

export type RouteOutcome =
  | {
      kind: 'response';
      response: UpstreamResponse;
      route: Route;
      model: CatalogModel;
      /** On a 429: the earliest moment any route of the request may be tried again (epoch ms), null if unknown. */
      retryAt: number | null;
    }
  | { kind: 'failed'; failure: UpstreamFailureKind | 'credential'; route: Route }
  | { kind: 'cancelled' }
  | { kind: 'circuit_open'; retryAfterMs: number }
  /** Every route of every model the request may take is cooling down: nothing was sent. */
  | { kind: 'throttled'; retryAt: number };

export interface RouterEvents {
  retry(reason: string): void;
  upstreamError(kind: UpstreamErrorKind): void;
  fallback?(from: string, to: string, status: number | string): void;
  /** An attempt on a route ended: `outcome` is its status or failure kind. */
  attempted?(route: Route, outcome: AttemptResult): void;
  /** A route started cooling down (or its cool-down grew): to share with the fleet and to show. */
  cooled?(route: Route, coolDown: CoolDown): void;
}

/** One route's tries within one request. */
interface Tries {
  readonly state: RouteState;
  readonly permit: Exclude<Permit, null>;
  count: number;
  /** performance.now() before which it is not tried again; Infinity: not again in this request. */
  retryAt: number;
  /** How its last try ended, for its breaker when the request is over. */
  last: 'answer' | 'failure' | 'throttled' | 'cancelled' | null;
  lastStatus: number;
}

type ModelResult =
  | { kind: 'final'; outcome: RouteOutcome }
  /** The model's routes are spent: the last answer or failure stands unless a fallback does better. */
  | { kind: 'spent' };

const CANCELLED = Object.freeze({ kind: 'cancelled' as const });

export class Router {
  constructor(
    private readonly table: RouteTable,
    private readonly policy: RetryPolicy,
    private readonly catalogue: ModelLookup,
    private readonly events: RouterEvents,
    private readonly now: () => number = () => performance.now(),
    private readonly wallNow: () => number = Date.now,
  ) {}

  async call(req: RouteRequest): Promise<RouteOutcome> {
    const run = new Run(req, this.now() + this.policy.deadlineMs);
    try {
      // First every route whose circuit lets it take the request while there may be somewhere else
      // to go; only when none did, the routes that are busy rather than down.
      for (const strict of [true, false]) {
        for (let i = 0; ; i++) {
          const model = this.modelAt(run, i);
          if (model === null) break;
          if (i > 0 && run.lastModel !== null && run.lastModel !== model) this.events.fallback?.(run.lastModel.id, model.id, run.lastLabel());
          const result = await this.serveModel(run, model, strict);
          if (result.kind === 'final') return result.outcome;
        }
        if (run.attempted) break;
      }
      return run.outcome(this.wallNow());
    } finally {
      run.settleBreakers();
    }
  }

  /**
   * A streamed answer of `route` broke off with the provider's error event of type `errorType` after
   * it had begun (too late to fail over): a throttle or an overload cools the route as a 429 without
   * a hint would, on every instance when they share Redis. Returns the cool-down, or null when the
   * error says nothing about the route's capacity.
   */
  streamBroke(route: Route, errorType: string): CoolDown | null {
    if (!coolsAfterStreamError(errorType)) return null;
    const state = this.table.byRouteName(route.name);
    if (state === undefined) return null;
    const coolDown = state.throttled(null, this.wallNow());
    this.cool(state, coolDown);
    return coolDown;
  }

  /** The i-th model the request may be served by: the one asked for, then its fallbacks the key may use. */
  private modelAt(run: Run, i: number): CatalogModel | null {
    if (i === 0) return run.req.model;
    if (!run.req.fallbacks) return null;
    run.fallbacks ??= fallbacksOf(run.req.model, this.catalogue, run.req.principal);
    return run.fallbacks[i - 1] ?? null;
  }

  private async serveModel(run: Run, model: CatalogModel, strict: boolean): Promise<ModelResult> {
    const states = this.table.routesOf(model);
    run.seen.push(states);
    for (;;) {
      if (run.req.cancellation.cancelled) return { kind: 'final', outcome: CANCELLED };
      const wallNow = this.wallNow();
      const order = orderRoutes(states, run.req.seed, wallNow, run.req.session);
      if (order.earliestUntil !== null) run.noteCooling(order.earliestUntil);
      const next = this.pick(run, order.usable, strict);
      if (next === 'none') return { kind: 'spent' };
      if (typeof next === 'number') {
        // Nothing can be tried now; the soonest route to be free again is worth the wait.
        if (!(await pause(next, run.req.cancellation))) return { kind: 'final', outcome: CANCELLED };
        continue;
      }
      const call = run.req.callFor(model, next.state.route.provider.dialect);
      if (call === null) {
        // The client's request cannot be sent to this model: nothing to try here.
        if (next.count === 0) next.state.breaker.abandon(next.permit);
        return { kind: 'spent' };
      }
      if (next.count > 0) this.events.retry(run.lastLabelOf(next));
      const result = await this.attempt(run, model, next, call);
      if (result !== null) return { kind: 'final', outcome: result };
    }
  }

  /**
   * The route to try next: the usable route with the fewest tries, in the planner's order; or how long
   * to wait for one that will be free soon enough (its retry pause, its cool-down); 'none' when the
   * model has nothing left for this request.
   */
  private pick(run: Run, usable: readonly RouteState[], strict: boolean): Tries | number | 'none' {
    const now = this.now();
    let best: Tries | null = null;
    let soonest = Infinity;
    for (const state of usable) {
      let tries = run.tries.get(state);
      if (tries === undefined) {
        const permit = state.breaker.allow(strict);
        if (permit === null) continue;
        tries = { state, permit, count: 0, retryAt: now, last: null, lastStatus: 0 };
        run.tries.set(state, tries);
        return tries;
      }
      if (tries.count >= this.policy.attempts || tries.retryAt === Infinity || state.breaker.state !== 'closed') continue;
      if (tries.retryAt > now) {
        soonest = Math.min(soonest, tries.retryAt);
        continue;
      }
      if (best === null || tries.count < best.count) best = tries;
    }
    if (best !== null) return best;
    // A route cooling down (left out of `usable`) that this request may still retry: its cool-down
    // is its retry pause.
    for (const tries of run.tries.values()) {
      if (tries.count >= this.policy.attempts || tries.retryAt === Infinity || tries.state.breaker.state !== 'closed') continue;
      const cooling = tries.state.coolingAt(this.wallNow());
      if (cooling === null) continue;
      soonest = Math.min(soonest, now + (cooling.until - this.wallNow()));
    }
    if (soonest === Infinity) return 'none';
    const wait = Math.max(0, soonest - now);
    if (wait > this.policy.retryAfterCapMs || soonest > run.deadline) return 'none';
    return wait;
  }

  /** One try of one route: null when the request goes on (to this route later, another, a fallback). */
  private async attempt(run: Run, model: CatalogModel, tries: Tries, dialectCall: DialectCall): Promise<RouteOutcome | null> {
    const { state } = tries;
    const route = state.route;
    const provider = route.provider;
    tries.count++;
    run.attempted = true;
    run.lastModel = model;
    const target = route.providerModel ?? model.id;
    // Every attempt is a span of its own, and the provider sees that span as its parent.
    const span = (run.req.trace ?? NO_TRACE).attempt(provider.id, provider.genAiProvider, target);
    let response: UpstreamResponse;
    try {
      const request = await provider.request(providerCall(dialectCall, target, route.providerModel !== null));
      span.inject(request.headers);
      response = provider.normalize(await provider.client.exchange(request, run.req.cancellation));
    } catch (err) {
      return this.failed(run, tries, err, span);
    }
    const status = response.statusCode;
    span.end(status);
    this.events.attempted?.(route, { status });
    const wallNow = this.wallNow();
    const headroom = readHeadroom(response, wallNow);
    if (headroom !== null) {
      state.headroom = headroom;
      if (headroom.exhaustedUntil !== null) this.cool(state, state.exhausted(headroom.exhaustedUntil));
    }
    tries.lastStatus = status;
    if (status === 429) {
      this.events.upstreamError('status');
      const hint = retryAfterMs(response.headers, wallNow);
      const coolDown = state.throttled(hint === null ? null : wallNow + hint, wallNow);
      this.cool(state, coolDown);
      run.noteCooling(coolDown.until);
      tries.last = 'throttled';
      // Tried again (if at all) when its cool-down ends and it is still within the retry-after cap.
      tries.retryAt = hint !== null && hint > this.policy.retryAfterCapMs ? Infinity : this.now();
      return run.keep(response, route, model);
    }
    state.served();
    if (status === 401 || status === 403) {
      // The provider refused this route's credential: another route (another account) may serve.
      tries.last = 'answer';
      tries.retryAt = Infinity;
      return run.keep(response, route, model);
    }
    if (isRetryableStatus(status)) {
      if (isFailureStatus(status)) this.events.upstreamError('status');
      tries.last = isFailureStatus(status) ? 'failure' : 'answer';
      const delay = this.policy.delayMs(tries.count - 1, response.headers);
      tries.retryAt = delay === null ? Infinity : this.now() + delay;
      return run.keep(response, route, model);
    }
    tries.last = 'answer';
    return { kind: 'response', response, route, model, retryAt: null };
  }

  private failed(run: Run, tries: Tries, err: unknown, span: AttemptTrace): RouteOutcome | null {
    const route = tries.state.route;
    const failure = err instanceof CredentialError ? 'credential' : classifyUpstreamFailure(err);
    span.end(failure === 'credential' ? 'connection_error' : traceErrorTypeOf(failure));
    if (failure === 'cancelled') {
      tries.last = 'cancelled';
      return CANCELLED;
    }
    this.events.attempted?.(route, { failure });
    if (failure !== 'credential') this.events.upstreamError(upstreamErrorKindOf(failure));
    tries.last = failure === 'credential' ? 'answer' : 'failure';
    // Only a connection that was never made is safe to repeat on the same route: the provider never
    // had the request. Any failure moves the request on to the next route.
    tries.retryAt = failure === 'connect' ? this.retryAfterConnect(tries) : Infinity;
    run.keepFailure(failure, route);
    return null;
  }

  private retryAfterConnect(tries: Tries): number {
    const delay = this.policy.delayMs(tries.count - 1, null);
    return delay === null ? Infinity : this.now() + delay;
  }

  private cool(state: RouteState, coolDown: CoolDown): void {
    this.events.cooled?.(state.route, coolDown);
  }
}

/**
 * The call for one route, written member by member: a spread of the dialect's call made objects the
 * provider read through megamorphic loads (~8k instructions per request in callgrind, issue 35).
 */
function providerCall(call: DialectCall, model: string, modelNamed: boolean): ProviderCall {
  return {
    operation: call.operation,
    body: call.body,
    forwarded: call.forwarded,
    bodyModel: call.bodyModel,
    model,
    modelNamed,
    stream: call.stream,
    query: call.query,
    incoming: call.incoming,
  };
}

/** One request's journey over the routes. */
class Run {
  readonly tries = new Map<RouteState, Tries>();
  fallbacks: CatalogModel[] | null = null;
  attempted = false;
  lastModel: CatalogModel | null = null;
  /** The answer or failure that goes back when nothing better comes. */
  private kept: RouteOutcome | null = null;
  private earliestCooling: number | null = null;
  /** The routes of every model the request went to (a model's list once per pass). */
  readonly seen: Array<readonly RouteState[]> = [];

  constructor(
    readonly req: RouteRequest,
    readonly deadline: number,
  ) {}

  noteCooling(until: number): void {
    this.earliestCooling = this.earliestCooling === null ? until : Math.min(this.earliestCooling, until);
  }

  /** Keeps an answer that may go back in the end; an answer it replaces is dropped. */
  keep(response: UpstreamResponse, route: Route, model: CatalogModel): null {
    this.drop();
    this.kept = { kind: 'response', response, route, model, retryAt: null };
    return null;
  }

  keepFailure(failure: UpstreamFailureKind | 'credential', route: Route): void {
    // An answer the provider gave says more than a failure on another route.
    if (this.kept?.kind === 'response') return;
    this.kept = { kind: 'failed', failure, route };
  }

  /** The status or failure of the last try of a route, for the retry metric. */
  lastLabelOf(tries: Tries): string {
    return tries.last === 'failure' && tries.lastStatus === 0 ? 'connect' : String(tries.lastStatus || 'connect');
  }

  lastLabel(): number | string {
    const k = this.kept;
    return k?.kind === 'response' ? k.response.statusCode : k?.kind === 'failed' ? k.failure : 'none';
  }

  outcome(wallNow: number): RouteOutcome {
    const kept = this.kept;
    if (kept !== null) {
      this.kept = null;
      if (kept.kind === 'response' && kept.response.statusCode === 429) return { ...kept, retryAt: this.earliestCooling };
      return kept;
    }
    if (this.earliestCooling !== null && this.earliestCooling > wallNow) return { kind: 'throttled', retryAt: this.earliestCooling };
    return { kind: 'circuit_open', retryAfterMs: this.openRetryAfterMs() };
  }

  /** Every route's breaker learns once per request how its tries ended. */
  settleBreakers(): void {
    for (const t of this.tries.values()) {
      const b = t.state.breaker;
      if (t.last === null || t.last === 'cancelled') b.abandon(t.permit);
      else if (t.last === 'failure') b.report(t.permit, true);
      else if (t.lastStatus >= 500 && !isFailureStatus(t.lastStatus)) b.abandon(t.permit);
      else b.report(t.permit, false);
    }
  }

  /** When the soonest open circuit among the routes the request could take lets a probe through. */
  private openRetryAfterMs(): number {
    let ms = Infinity;
    for (const states of this.seen) for (const state of states) if (state.breaker.state !== 'closed') ms = Math.min(ms, state.breaker.retryAfterMs());
    return Number.isFinite(ms) ? ms : 0;
  }

  private drop(): void {
    const k = this.kept;
    if (k?.kind === 'response' && k.response.kind === 'stream') k.response.body.cancel(new ExchangeCancelled());
  }
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

