// One upstream call made resilient: retried with backoff while the provider answers with a transient
// failure (or cannot be connected to), re-addressed to the catalogue's fallback models when one model
// keeps failing, and refused at once while the upstream's circuit is open. Everything here happens
// before the first byte goes to the client, so a retry is never visible except as latency.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogModel } from '../catalog/model.js';
import type { UpstreamErrorKind } from '../observability/metrics.js';
import type { UpstreamFailureKind, UpstreamRequest, UpstreamResponse } from '../upstream/client.js';
import { classifyUpstreamFailure } from '../upstream/client.js';
import type { CircuitBreaker, Permit } from './circuit-breaker.js';
import { isFailureStatus } from './circuit-breaker.js';
import type { ModelLookup } from './fallback.js';
import { fallbacksOf, isReplayable, readdressed } from './fallback.js';
import type { RetryPolicy } from './retry-policy.js';
import { isRetryableStatus } from './retry-policy.js';

export interface CallPlan {
  request: UpstreamRequest;
  signal: AbortSignal;
  /** The model addressed; null = no fallbacks. */
  model: CatalogModel | null;
  allowFallback: boolean;
  allowedModels: ReadonlySet<string> | null;
}

export type CallOutcome =
  | { kind: 'response'; response: UpstreamResponse; model: CatalogModel | null }
  | { kind: 'failed'; failure: UpstreamFailureKind }
  | { kind: 'cancelled' }
  | { kind: 'circuit_open'; retryAfterMs: number };

export interface Dispatch {
  request(req: UpstreamRequest): Promise<UpstreamResponse>;
}

export interface CallEvents {
  retry(reason: string): void;
  upstreamError(kind: UpstreamErrorKind): void;
  fallback?(from: string, to: string, status: number): void;
}

/** What one model's attempts ended with. */
type ModelOutcome = Exclude<CallOutcome, { kind: 'response' }> | { kind: 'response'; response: UpstreamResponse; exhausted: boolean };

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
    if (!isReplayable(plan.request.body)) return this.once(plan.request);
    const deadline = this.now() + this.policy.deadlineMs;
    let request = plan.request;
    let model = plan.model;
    let fallbacks: CatalogModel[] | null = null;
    for (;;) {
      const outcome = await this.attempts(request, plan.signal, deadline);
      if (outcome.kind !== 'response') return outcome;
      const { response } = outcome;
      if (!outcome.exhausted || !plan.allowFallback || model === null || this.breaker.state === 'open') {
        return { kind: 'response', response, model };
      }
      fallbacks ??= fallbacksOf(model, this.catalogue, plan.allowedModels);
      const next = fallbacks.shift();
      const nextRequest = next === undefined ? null : readdressed(plan.request, next);
      if (next === undefined || nextRequest === null) return { kind: 'response', response, model };
      this.events.fallback?.(model.id, next.id, response.statusCode);
      await discard(response);
      if (plan.signal.aborted) return CANCELLED;
      request = nextRequest;
      model = next;
    }
  }

  /** A streamed body cannot be sent twice: one attempt, still guarded and counted by the breaker. */
  private async once(request: UpstreamRequest): Promise<CallOutcome> {
    const permit = this.breaker.allow();
    if (permit === null) return { kind: 'circuit_open', retryAfterMs: this.breaker.retryAfterMs() };
    try {
      const response = await this.upstream.request(request);
      this.report(permit, response.statusCode);
      return { kind: 'response', response, model: null };
    } catch (err) {
      return this.failed(err, permit);
    }
  }

  private failed(err: unknown, permit: Permit): CallOutcome & { kind: 'failed' | 'cancelled' } {
    const failure = classifyUpstreamFailure(err);
    if (failure === 'cancelled') {
      this.breaker.abandon(permit);
      return CANCELLED;
    }
    this.breaker.failure();
    this.events.upstreamError(failure);
    return { kind: 'failed', failure };
  }

  /** Tries one model until it answers for good, retries run out, or the deadline or circuit stops it. */
  private async attempts(request: UpstreamRequest, signal: AbortSignal, deadline: number): Promise<ModelOutcome> {
    for (let attempt = 0; ; attempt++) {
      const permit = this.breaker.allow();
      if (permit === null) return { kind: 'circuit_open', retryAfterMs: this.breaker.retryAfterMs() };
      let response: UpstreamResponse;
      try {
        response = await this.upstream.request(request);
      } catch (err) {
        const failed = this.failed(err, permit);
        // Only a connection that was never made is safe to repeat: the request did not reach the provider.
        const delay = failed.kind === 'failed' && failed.failure === 'connect' ? this.retryDelay(attempt, null, deadline) : null;
        if (delay === null) return failed;
        this.events.retry('connect');
        if (!(await pause(delay, signal))) return CANCELLED;
        continue;
      }
      const status = response.statusCode;
      this.report(permit, status);
      if (!isRetryableStatus(status)) return { kind: 'response', response, exhausted: false };
      const delay = this.retryDelay(attempt, response.headers, deadline);
      if (delay === null) return { kind: 'response', response, exhausted: true };
      this.events.retry(String(status));
      await discard(response);
      if (!(await pause(delay, signal))) return CANCELLED;
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
  private retryDelay(attempt: number, headers: UpstreamResponse['headers'] | null, deadline: number): number | null {
    if (attempt + 1 >= this.policy.attempts || this.breaker.state === 'open') return null;
    const delay = this.policy.delayMs(attempt, headers);
    if (delay === null || this.now() + delay > deadline) return null;
    return delay;
  }
}

/** Reads away an answer that will not be used, so its connection can serve the next call. */
async function discard(response: UpstreamResponse): Promise<void> {
  try {
    await response.body.dump();
  } catch {
    // A broken error body changes nothing: the answer is not used.
  }
}

/** false when the client went away during the pause. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
