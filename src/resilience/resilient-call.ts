// One upstream call made resilient: retried with backoff while the provider answers with a transient
// failure (or cannot be connected to), re-addressed to the catalogue's fallback models when one model
// keeps failing, and refused at once while the upstream's circuit is open. Everything here happens
// before the first byte goes to the client, so a retry is never visible except as latency.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogModel } from '../catalog/model.js';
import type { Principal } from '../keys/principal.js';
import type { UpstreamErrorKind } from '../observability/metrics.js';
import type { Cancellation } from '../upstream/cancellation.js';
import type { UpstreamFailureKind, UpstreamRequest } from '../upstream/client.js';
import { classifyUpstreamFailure, upstreamErrorKindOf } from '../upstream/client.js';
import type { AnswerHeaders, ProviderAnswer } from '../upstream/exchange.js';
import { ExchangeCancelled } from '../upstream/exchange.js';
import type { CircuitBreaker, Permit } from './circuit-breaker.js';
import { isFailureStatus } from './circuit-breaker.js';
import type { ModelLookup, ReplayableRequest } from './fallback.js';
import { fallbacksOf, readdressed } from './fallback.js';
import type { RetryPolicy } from './retry-policy.js';
import { isRetryableStatus } from './retry-policy.js';

export interface CallPlan {
  request: ReplayableRequest;
  /** The client going away stops the call, a pause between attempts included. */
  cancellation: Cancellation;
  /** The model addressed; null = no fallbacks. */
  model: CatalogModel | null;
  allowFallback: boolean;
  /** Whose key the call is for: fallbacks stay within the models it may use. */
  principal: Principal | null;
}

export type CallOutcome =
  | { kind: 'response'; response: ProviderAnswer; model: CatalogModel | null }
  | { kind: 'failed'; failure: UpstreamFailureKind }
  | { kind: 'cancelled' }
  | { kind: 'circuit_open'; retryAfterMs: number };

export interface Dispatch {
  exchange(req: UpstreamRequest, cancellation?: Cancellation): Promise<ProviderAnswer>;
}

export interface CallEvents {
  retry(reason: string): void;
  upstreamError(kind: UpstreamErrorKind): void;
  fallback?(from: string, to: string, status: number): void;
}

/** What one model's attempts ended with. */
type ModelOutcome = Exclude<CallOutcome, { kind: 'response' }> | { kind: 'response'; response: ProviderAnswer; exhausted: boolean };

const CANCELLED = Object.freeze({ kind: 'cancelled' as const });

export class ResilientCaller {
  constructor(
    private readonly upstream: Dispatch,
    private readonly policy: RetryPolicy,
    private readonly breaker: CircuitBreaker,
    private readonly catalogue: ModelLookup,
    private readonly events: CallEvents,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async call(plan: CallPlan): Promise<CallOutcome> {
    const deadline = this.now() + this.policy.deadlineMs;
    let request = plan.request;
    let model = plan.model;
    let fallbacks: CatalogModel[] | null = null;
    for (;;) {
      const outcome = await this.attempts(request, plan.cancellation, deadline);
      if (outcome.kind !== 'response') return outcome;
      const { response } = outcome;
      if (!outcome.exhausted || !plan.allowFallback || model === null || this.breaker.state === 'open') {
        return { kind: 'response', response, model };
      }
      fallbacks ??= fallbacksOf(model, this.catalogue, plan.principal);
      const next = fallbacks.shift();
      const nextRequest = next === undefined ? null : readdressed(plan.request, next);
      if (next === undefined || nextRequest === null) return { kind: 'response', response, model };
      this.events.fallback?.(model.id, next.id, response.statusCode);
      discard(response);
      if (plan.cancellation.cancelled) return CANCELLED;
      request = nextRequest;
      model = next;
    }
  }

  private failed(err: unknown, permit: Permit): CallOutcome & { kind: 'failed' | 'cancelled' } {
    const failure = classifyUpstreamFailure(err);
    if (failure === 'cancelled') {
      this.breaker.abandon(permit);
      return CANCELLED;
    }
    this.breaker.failure();
    this.events.upstreamError(upstreamErrorKindOf(failure));
    return { kind: 'failed', failure };
  }

  /** Tries one model until it answers for good, retries run out, or the deadline or circuit stops it. */
  private async attempts(request: ReplayableRequest, cancellation: Cancellation, deadline: number): Promise<ModelOutcome> {
    for (let attempt = 0; ; attempt++) {
      const permit = this.breaker.allow();
      if (permit === null) return { kind: 'circuit_open', retryAfterMs: this.breaker.retryAfterMs() };
      let response: ProviderAnswer;
      try {
        response = await this.upstream.exchange(request, cancellation);
      } catch (err) {
        const failed = this.failed(err, permit);
        // Only a connection that was never made is safe to repeat: the request did not reach the provider.
        const delay = failed.kind === 'failed' && failed.failure === 'connect' ? this.retryDelay(attempt, null, deadline) : null;
        if (delay === null) return failed;
        this.events.retry('connect');
        if (!(await pause(delay, cancellation))) return CANCELLED;
        continue;
      }
      const status = response.statusCode;
      this.report(permit, status);
      if (!isRetryableStatus(status)) return { kind: 'response', response, exhausted: false };
      const delay = this.retryDelay(attempt, response.headers, deadline);
      if (delay === null) return { kind: 'response', response, exhausted: true };
      this.events.retry(String(status));
      discard(response);
      if (!(await pause(delay, cancellation))) return CANCELLED;
    }
  }

  private report(permit: Permit, status: number): void {
    if (isFailureStatus(status)) {
      this.breaker.failure();
      this.events.upstreamError('status');
    } else if (status < 500) {
      this.breaker.success();
    } else {
      this.breaker.abandon(permit);
    }
  }

  /** The wait before the next attempt, or null when there is none (attempts, deadline, open circuit). */
  private retryDelay(attempt: number, headers: AnswerHeaders | null, deadline: number): number | null {
    if (attempt + 1 >= this.policy.attempts || this.breaker.state === 'open') return null;
    const delay = this.policy.delayMs(attempt, headers);
    if (delay === null || this.now() + delay > deadline) return null;
    return delay;
  }
}

/** An answer that will not be used: a JSON one is already read whole; a stream is dropped. */
function discard(response: ProviderAnswer): void {
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
