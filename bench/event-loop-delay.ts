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

export function startDelayMonitor(): DelayMonitor {
  const histogram = monitorEventLoopDelay({ resolution: SAMPLE_INTERVAL_MS });
  histogram.enable();
  const beyondInterval = (ns: number) => Math.max(0, ns / 1e6 - SAMPLE_INTERVAL_MS);
  return {
    reset: () => histogram.reset(),
    percentileMs: (p) => beyondInterval(histogram.percentile(p)),
    maxMs: () => beyondInterval(histogram.max),
  };
}
