// Flat memory: many requests of every kind through the gateway, with the heap measured after a full
// GC between segments. A leak shows as steady growth from the first segment to the last.
import { runLoad } from '../load.js';
import { MiB, round } from '../results.js';
import type { Scenario } from '../scenarios.js';
import type { Processes } from '../targets.js';

export interface MemoryResult {
  requests: number;
  unexpected: number;
  series: { requests: number; heapMiB: number; rssMiB: number }[];
  /** Heap after GC, last segment minus first. */
  heapGrowthMiB: number;
  rssGrowthMiB: number;
}

export interface MemoryPhaseOptions {
  requests: number;
  connections: number;
  log: (line: string) => void;
}

const SEGMENTS = 10;

export async function runMemoryPhase(p: Processes, scenarios: readonly Scenario[], opts: MemoryPhaseOptions): Promise<MemoryResult> {
  // Every successful kind of request in turn (the 1 MiB bodies would only measure the allocator).
  const requests = scenarios.filter((s) => s.expectStatus === 200).map((s) => s.gateway);
  const perSegment = Math.max(opts.connections, Math.ceil(opts.requests / SEGMENTS));
  const series: MemoryResult['series'] = [];
  let sent = 0;
  let unexpected = 0;
  for (let i = 0; i < SEGMENTS; i++) {
    const r = await runLoad({ url: p.gateway.url, connections: opts.connections, durationSec: 3600, amount: perSegment, requests, expectStatus: 200 });
    sent += r.ok + r.unexpected;
    unexpected += r.unexpected;
    const s = await p.gateway.gc();
    series.push({ requests: sent, heapMiB: round(s.heapUsedBytes / MiB, 2), rssMiB: round(s.rssBytes / MiB, 1) });
  }
  const first = series[0]!;
  const last = series[series.length - 1]!;
  const result = { requests: sent, unexpected, series, heapGrowthMiB: round(last.heapMiB - first.heapMiB, 2), rssGrowthMiB: round(last.rssMiB - first.rssMiB, 1) };
  opts.log(`memory: ${sent} requests, heap ${first.heapMiB} → ${last.heapMiB} MiB, RSS ${first.rssMiB} → ${last.rssMiB} MiB`);
  return result;
}
