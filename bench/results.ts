// The shapes written to bench/results/<timestamp>.json, and how windows of several rounds combine.
import type { ProcessStats } from './ipc.js';
import { sumGcTallies } from './gc-tally.js';
import type { Window } from './measure.js';
import type { Summary } from './percentiles.js';
import { median, Samples } from './percentiles.js';
import type { TargetName } from './targets.js';

export interface ProcessSummary {
  rssPeakMiB: number;
  /** The worst window's event-loop delay p99 and max. */
  eldP99Ms: number;
  eldMaxMs: number;
  cpuUsPerRequest: number;
  /** CPU time over wall time: 1.0 is one core fully busy. */
  cpuCores: number;
  /** The main thread's garbage collection over all the windows (./gc-tally.ts), per request where so named. */
  gc: { scavenges: number; fullCollections: number; pauseUsPerRequest: number; promotedBytesPerRequest: number };
}

export interface TargetResult {
  /** Median over rounds of requests per second with the expected status. */
  rps: number;
  rpsRounds: number[];
  ok: number;
  unexpected: number;
  latencyMs: Summary;
  ttftMs: Summary | null;
  mixIn: { rps: number; latencyMs: Summary; unexpected: number } | null;
  proxy: ProcessSummary | null;
  simulator: ProcessSummary;
}

export interface ScenarioResult {
  name: string;
  description: string;
  connections: number;
  targets: Record<TargetName, TargetResult>;
  ratios: {
    gatewayToPassthrough: number;
    gatewayToDirect: number;
    passthroughToDirect: number;
    /**
     * CPU per request, gateway / pass-through: the median over rounds of each round's own ratio. The
     * two windows of a round run minutes closer together than the first and last round, so the
     * machine's drift (other tenants, frequency) falls on both alike, where pooling every round
     * lets one slow stretch decide.
     */
    cpuGatewayToPassthrough: number;
    cpuRatioRounds: number[];
  };
}

export const MiB = 1024 * 1024;

export function combineWindows(windows: readonly Window[]): TargetResult {
  const latency = new Samples();
  const ttft = new Samples();
  const mixLatency = new Samples();
  for (const w of windows) {
    latency.addAll(w.load.latencyMs);
    if (w.probe) ttft.addAll(w.probe.ttftMs);
    if (w.mixIn) mixLatency.addAll(w.mixIn.latencyMs);
  }
  const hasMix = windows.some((w) => w.mixIn !== null);
  const proxies = windows.filter((w) => w.proxy !== null);
  return {
    rps: median(windows.map((w) => w.load.rps)),
    rpsRounds: windows.map((w) => round(w.load.rps, 0)),
    ok: sum(windows.map((w) => w.load.ok)),
    unexpected: sum(windows.map((w) => w.load.unexpected + (w.probe?.unexpected ?? 0) + (w.mixIn?.unexpected ?? 0))),
    latencyMs: latency.summary(),
    ttftMs: ttft.size > 0 ? ttft.summary() : null,
    mixIn: hasMix
      ? { rps: median(windows.map((w) => w.mixIn?.rps ?? 0)), latencyMs: mixLatency.summary(), unexpected: sum(windows.map((w) => w.mixIn?.unexpected ?? 0)) }
      : null,
    proxy: proxies.length === 0 ? null : summarizeProcess(proxies.map((w) => [w.proxy!, w.answered])),
    simulator: summarizeProcess(windows.map((w) => [w.simulator, w.answered])),
  };
}

/** The proxy's CPU time per answered request in one window (NaN for the simulator-direct windows). */
/** CPU per answered request of the window's proxy (NaN for the simulator direct, or no answers). */
export function cpuPerRequest(w: Window): number {
  return w.proxy === null || w.answered === 0 ? Number.NaN : w.proxy.cpuUs / w.answered;
}

/** Each round's CPU-per-request ratio of the gateway's window to the pass-through's window of the same round. */
export function roundCpuRatios(gateway: readonly Window[], passthrough: readonly Window[]): number[] {
  return gateway.map((w, r) => round(cpuPerRequest(w) / cpuPerRequest(passthrough[r]!), 3));
}

export function summarizeProcess(windows: readonly (readonly [ProcessStats, number])[]): ProcessSummary {
  const cpu = sum(windows.map(([s]) => s.cpuUs));
  const answered = sum(windows.map(([, n]) => n));
  const wallUs = sum(windows.map(([s]) => s.wallMs * 1000));
  const gc = sumGcTallies(windows.map(([s]) => s.gc));
  const perRequest = (total: number, digits: number) => (answered === 0 ? NaN : round(total / answered, digits));
  return {
    rssPeakMiB: round(Math.max(...windows.map(([s]) => s.rssPeakBytes)) / MiB, 1),
    eldP99Ms: round(Math.max(...windows.map(([s]) => s.eldP99Ms)), 2),
    eldMaxMs: round(Math.max(...windows.map(([s]) => s.eldMaxMs)), 2),
    cpuUsPerRequest: perRequest(cpu, 1),
    cpuCores: wallUs === 0 ? NaN : round(cpu / wallUs, 2),
    gc: {
      scavenges: gc.scavenges,
      fullCollections: gc.fullCollections,
      pauseUsPerRequest: perRequest(gc.pauseUs, 1),
      promotedBytesPerRequest: perRequest(gc.promotedBytes, 0),
    },
  };
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
