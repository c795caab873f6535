// Why a client's slowest requests were slow: for each of them, whether a garbage-collection pause of
// some process overlapped it. A request no pause overlapped was slowed by something outside every
// process's own work (the scheduler, the other core's load, the hypervisor).
import type { Pause } from './gc-pauses.js';

/** One request as the client saw it: when it began (ms since the epoch) and how long it took. */
export interface TimedRequest {
  startMs: number;
  durationMs: number;
}

export interface TailAttribution {
  /** How many requests were examined: the slowest `fraction` of them, at least one. */
  count: number;
  /** The latency of the fastest request examined. */
  fromMs: number;
  /** For each process, how many of them one of its pauses overlapped (a request can count for several). */
  overlapping: Record<string, number>;
  /** How many of them no pause of any process overlapped. */
  unexplained: number;
}

export function attributeTail(
  requests: readonly TimedRequest[],
  pausesByProcess: Readonly<Record<string, readonly Pause[]>>,
  fraction: number,
): TailAttribution {
  const slowest = [...requests].sort((a, b) => b.durationMs - a.durationMs).slice(0, Math.max(1, Math.ceil(requests.length * fraction)));
  const processes = Object.entries(pausesByProcess).map(([name, pauses]) => ({ name, pauses: [...pauses].sort((a, b) => a.startMs - b.startMs) }));
  const overlapping: Record<string, number> = Object.fromEntries(processes.map((p) => [p.name, 0]));
  let unexplained = 0;
  for (const r of slowest) {
    let any = false;
    for (const p of processes) {
      if (!overlaps(p.pauses, r)) continue;
      overlapping[p.name]!++;
      any = true;
    }
    if (!any) unexplained++;
  }
  return { count: slowest.length, fromMs: slowest.at(-1)?.durationMs ?? NaN, overlapping, unexplained };
}

/**
 * One thread's pauses never overlap each other, so sorted by start they are sorted by end too: the
 * last pause to start before the request ended is the only one that can reach into it.
 */
function overlaps(sortedPauses: readonly Pause[], r: TimedRequest): boolean {
  const end = r.startMs + r.durationMs;
  let lo = 0;
  let hi = sortedPauses.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sortedPauses[mid]!.startMs < end) lo = mid + 1;
    else hi = mid;
  }
  const last = sortedPauses[lo - 1];
  return last !== undefined && last.startMs + last.durationMs > r.startMs;
}

/** One request as the gateway's access line saw it (at debug level, with the upstream timings). */
export interface GatewaySide {
  /** Arrival → response over. */
  durationMs: number;
  /** Arrival → the call that answered was dispatched. */
  upstreamSentMs: number;
  /** Arrival → that answer's headers. */
  upstreamMs: number;
}

/** Mean milliseconds of a set of requests, by where they were spent; the four parts add up to the client's. */
export interface WhereSpent {
  count: number;
  clientMs: number;
  /** Client ↔ gateway: the client's own work, both hops, and waiting to be scheduled at either end. */
  outsideGatewayMs: number;
  /** The gateway's work before the call: reading, authenticating, translating the request. */
  beforeCallMs: number;
  /** Dispatch → the answer's headers: both hops to the provider and the provider's own time. */
  upstreamMs: number;
  /** The answer's headers → response over: reading it, translating or relaying it, writing it out. */
  afterAnswerMs: number;
}

/**
 * Where the time of all requests, and of the slowest `fraction` of them, went. `gateway[i]` is what the
 * gateway logged for `requests[i]` (one connection, one request at a time: its lines come in order).
 */
export function whereSpent(requests: readonly TimedRequest[], gateway: readonly GatewaySide[], fraction: number): { all: WhereSpent; slowest: WhereSpent } {
  if (gateway.length !== requests.length) throw new Error(`${requests.length} requests but ${gateway.length} gateway lines`);
  const indices = requests.map((_, i) => i);
  const slowest = [...indices].sort((a, b) => requests[b]!.durationMs - requests[a]!.durationMs).slice(0, Math.max(1, Math.ceil(requests.length * fraction)));
  const mean = (of: readonly number[]): WhereSpent => {
    let client = 0;
    let duration = 0;
    let sent = 0;
    let answered = 0;
    for (const i of of) {
      client += requests[i]!.durationMs;
      duration += gateway[i]!.durationMs;
      sent += gateway[i]!.upstreamSentMs;
      answered += gateway[i]!.upstreamMs;
    }
    const n = of.length;
    return {
      count: n,
      clientMs: client / n,
      outsideGatewayMs: (client - duration) / n,
      beforeCallMs: sent / n,
      upstreamMs: (answered - sent) / n,
      afterAnswerMs: (duration - answered) / n,
    };
  };
  return { all: mean(indices), slowest: mean(slowest) };
}
