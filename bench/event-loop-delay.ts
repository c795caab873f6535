// Event-loop delay as the bench reports it. monitorEventLoopDelay records the time between the
// callbacks of its own repeating timer, so an idle loop reads the timer's interval (5 ms here),
// not zero: the delay is what exceeds the interval. Reporting the raw values would charge every
// process 5 ms it never lost (the pass-through read 7.8 ms at p99 for ~2.8 ms of real delay).
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The sampling timer's interval. Shorter catches shorter stalls but wakes the process more often. */
export const SAMPLE_INTERVAL_MS = 5;

export interface DelayMonitor {
  reset(): void;
  /** Delay beyond the sampling interval at this percentile, milliseconds (never negative). */
  percentileMs(p: number): number;
  maxMs(): number;
}

/** What the monitor reads from: node's histogram, or a test's table. */
export interface DelaySource {
  enable(): boolean;
  reset(): void;
  percentile(p: number): number;
  readonly max: number;
}

/** A raw reading (nanoseconds between the timer's callbacks) as delay beyond the interval, in ms. */
export function beyondInterval(ns: number): number {
  return Math.max(0, ns / 1e6 - SAMPLE_INTERVAL_MS);
}

export function startDelayMonitor(source: DelaySource = monitorEventLoopDelay({ resolution: SAMPLE_INTERVAL_MS })): DelayMonitor {
  source.enable();
  return {
    reset: () => source.reset(),
    percentileMs: (p) => beyondInterval(source.percentile(p)),
    maxMs: () => beyondInterval(source.max),
  };
}
