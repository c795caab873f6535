// Open-loop load at evenly spaced arrivals: request i is due at start + i/rate, whatever the answers
// before it did, over a pool of keep-alive connections. This is how traffic reaches an ingress fleet
// from many independent clients. autocannon's `overallRate` is different: each connection sends its
// quota for the second back to back and then waits for the second to end, so the load comes as one
// burst a second, and what a request costs then depends on how each burst is shared out.
import { Pool } from 'undici';
import { Answers, type LoadResult } from './load.js';
import type { RequestSpec } from './scenarios.js';

export interface PacedLoadSpec {
  url: string;
  /** Keep-alive connections the pool may open: a request due while all are busy waits for one. */
  connections: number;
  durationSec: number;
  /** Requests per second, evenly spaced. */
  rate: number;
  /** Sent in turn. */
  requests: readonly RequestSpec[];
  expectStatus: number;
  timeoutSec?: number;
}

/**
 * The due times of a run's requests, in ms from its start: `rate` a second, evenly spaced, the first at 0.
 * Pure, so the schedule is tested apart from the sockets.
 */
export function dueTimes(rate: number, durationSec: number): Float64Array {
  const count = Math.floor(rate * durationSec);
  const gap = 1000 / rate;
  const due = new Float64Array(count);
  for (let i = 0; i < count; i++) due[i] = i * gap;
  return due;
}

/** Latency is from each request's due time, not from when it left: a request kept waiting by the ones before it counts the wait. */
export async function runPacedLoad(spec: PacedLoadSpec): Promise<LoadResult> {
  const timeoutMs = (spec.timeoutSec ?? 10) * 1000;
  const pool = new Pool(spec.url, { connections: spec.connections, pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const answers = new Answers(spec.expectStatus);
  let errors = 0;
  const due = dueTimes(spec.rate, spec.durationSec);
  const inFlight = new Set<Promise<void>>();
  const send = (i: number, dueAt: number) => {
    const r = spec.requests[i % spec.requests.length]!;
    const done = pool
      .request({ method: r.method, path: r.path, headers: r.headers, body: r.body })
      .then(async (res) => {
        await res.body.arrayBuffer();
        answers.add(res.statusCode, performance.now() - dueAt);
      })
      .catch(() => {
        errors++;
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  const started = performance.now();
  let next = 0;
  try {
    await new Promise<void>((resolve) => {
      // Each tick sends every request now due and sleeps until the next one: a timer may fire late,
      // never early, so a late tick catches up rather than shifting the schedule.
      const tick = () => {
        const now = performance.now() - started;
        for (; next < due.length && due[next]! <= now; next++) send(next, started + due[next]!);
        if (next === due.length) return resolve();
        setTimeout(tick, Math.max(0, due[next]! - (performance.now() - started)));
      };
      tick();
    });
    await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  return answers.result(errors, (performance.now() - started) / 1000);
}
