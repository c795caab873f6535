// Garbage-collection pauses of the thread that records them, stamped on the wall clock so that pauses
// of different processes can be laid against one client's requests (the tail-latency tool).
import type { PerformanceEntry } from 'node:perf_hooks';
import { performance, PerformanceObserver } from 'node:perf_hooks';

/** Milliseconds since the epoch, and how long the collector held the thread. */
export interface Pause {
  startMs: number;
  durationMs: number;
}

export interface PauseRecorder {
  /** The pauses since the last call (or since recording began). */
  take(): Pause[];
  stop(): void;
}

export function recordGcPauses(): PauseRecorder {
  let pauses: Pause[] = [];
  const keep = (entries: readonly PerformanceEntry[]) => {
    for (const e of entries) pauses.push({ startMs: performance.timeOrigin + e.startTime, durationMs: e.duration });
  };
  const observer = new PerformanceObserver((list) => keep(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    take() {
      // Entries are delivered in batches a little later; the ones still buffered count too.
      keep(observer.takeRecords());
      const taken = pauses;
      pauses = [];
      return taken;
    },
    stop: () => observer.disconnect(),
  };
}
