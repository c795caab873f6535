// What the garbage collector did in a window, from V8's own GC profile (node:v8 GCProfiler, kept by
// each bench child): how many young-generation collections (scavenges) and full collections ran, how
// long they held the thread, and how many bytes the scavenges promoted to the old generation. A full
// run's CPU per request moved by 10-20 % with whether the gateway fell into a cycle of promotion and
// full collections or not (bench/README.md, issue 35), which its numbers did not show; these do.
import type { GCProfilerResult } from 'node:v8';

export interface GcTally {
  scavenges: number;
  /** Mark-compact collections (the old generation's). */
  fullCollections: number;
  /** Time the collections held the thread, all kinds (incremental marking steps included). */
  pauseUs: number;
  /** Growth of the old generation across scavenges: what they promoted. */
  promotedBytes: number;
}

export function emptyGcTally(): GcTally {
  return { scavenges: 0, fullCollections: 0, pauseUs: 0, promotedBytes: 0 };
}

/** Where a scavenge puts what it promotes: the old space, and the large-object space for large objects. */
const PROMOTED_TO = new Set(['old_space', 'large_object_space']);

/** Adds one GC profile (from GCProfiler#stop) to `into`. */
export function addGcProfile(into: GcTally, profile: Pick<GCProfilerResult, 'statistics'>): void {
  for (const gc of profile.statistics) {
    into.pauseUs += gc.cost;
    if (gc.gcType === 'MarkSweepCompact') into.fullCollections++;
    else if (gc.gcType === 'Scavenge') {
      into.scavenges++;
      into.promotedBytes += Math.max(0, usedIn(gc.afterGC.heapSpaceStatistics) - usedIn(gc.beforeGC.heapSpaceStatistics));
    }
  }
}

function usedIn(spaces: ReadonlyArray<{ spaceName: string; spaceUsedSize: number }>): number {
  let used = 0;
  for (const s of spaces) if (PROMOTED_TO.has(s.spaceName)) used += s.spaceUsedSize;
  return used;
}

export function sumGcTallies(tallies: readonly GcTally[]): GcTally {
  const total = emptyGcTally();
  for (const t of tallies) {
    total.scavenges += t.scavenges;
    total.fullCollections += t.fullCollections;
    total.pauseUs += t.pauseUs;
    total.promotedBytes += t.promotedBytes;
  }
  return total;
}
