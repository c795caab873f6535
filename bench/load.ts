// One load run with autocannon, driven programmatically: fixed connections for a fixed duration (or a
// fixed number of requests), with every response's latency recorded exactly and its status checked.
import autocannon from 'autocannon';
import type { RequestSpec } from './scenarios.js';
import { Samples } from './percentiles.js';

export interface LoadSpec {
  url: string;
  connections: number;
  durationSec: number;
  /** When set, the run ends after this many requests instead of after durationSec. */
  amount?: number;
  /** Sent in turn on each connection. */
  requests: readonly RequestSpec[];
  expectStatus: number;
  /** Requests per second over all connections; unset: as fast as the target answers. */
  overallRate?: number;
  /** Ends the run early (before durationSec) when aborted. */
  stop?: AbortSignal;
  /** Seconds autocannon waits for one response (held streams need more than the default 10). */
  timeoutSec?: number;
}

export interface LoadResult {
  /** Responses with the expected status. */
  ok: number;
  /** Responses with another status, and connection errors or timeouts. */
  unexpected: number;
  /** The statuses other than the expected one, with how often each came. */
  otherStatuses: Record<number, number>;
  errors: number;
  elapsedSec: number;
  rps: number;
  latencyMs: Samples;
}

/** The answers of one run as they come: statuses against the expected one, and every latency. */
export class Answers {
  private ok = 0;
  private unexpected = 0;
  private readonly otherStatuses: Record<number, number> = {};
  private readonly latencyMs = new Samples();

  constructor(private readonly expectStatus: number) {}

  add(status: number, ms: number): void {
    this.latencyMs.add(ms);
    if (status === this.expectStatus) this.ok++;
    else {
      this.unexpected++;
      this.otherStatuses[status] = (this.otherStatuses[status] ?? 0) + 1;
    }
  }

  /** The run's result, with the requests that got no answer at all (connection errors, timeouts). */
  result(errors: number, elapsedSec: number): LoadResult {
    const { ok, otherStatuses, latencyMs } = this;
    return { ok, unexpected: this.unexpected + errors, otherStatuses, errors, elapsedSec, rps: ok / elapsedSec, latencyMs };
  }
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const answers = new Answers(spec.expectStatus);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.durationSec,
        ...(spec.amount !== undefined ? { amount: spec.amount } : {}),
        ...(spec.overallRate !== undefined ? { overallRate: spec.overallRate } : {}),
        timeout: spec.timeoutSec ?? 10,
        pipelining: 1,
        // autocannon notices the end of a run on its sampling tick: 100 ms, not the default second.
        sampleInt: 100,
        requests: spec.requests.map((r) => ({ method: r.method, path: r.path, headers: r.headers, body: r.body })),
        skipAggregateResult: true,
      },
      (err, result) => {
        if (err) return reject(err);
        resolve(answers.result(result.errors, (performance.now() - started) / 1000));
      },
    );
    spec.stop?.addEventListener('abort', () => instance.stop(), { once: true });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => answers.add(status, ms));
  });
}
