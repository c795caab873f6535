// A small, stable micro-benchmark harness: warm up until the code is optimised, size each run to a
// fixed time, repeat, report the median (and the spread, so a noisy result is visible as one).
// Compare implementations by putting them side by side in one file and one process.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface MicroCase {
  name: string;
  /** One call; may do several operations (see opsPerCall). Return a value so the work is not dropped. */
  fn: () => unknown;
  /** Operations per call, e.g. events in a replayed stream: results are per operation. */
  opsPerCall?: number;
}

export interface MicroResult {
  name: string;
  /** Median over runs, nanoseconds per operation. */
  nsPerOp: number;
  /**
   * Median over runs of the process's CPU time per operation (process.cpuUsage), in nanoseconds: on a
   * shared machine the wall time also counts the moments the process waited for a core.
   */
  cpuNsPerOp: number;
  minNs: number;
  maxNs: number;
  runs: number;
  callsPerRun: number;
}

export interface MicroOptions {
  warmupMs?: number;
  runMs?: number;
  runs?: number;
}

let sink: unknown;

export function measure(c: MicroCase, opts: MicroOptions = {}): MicroResult {
  const plan = planOf(opts, c.opsPerCall);
  const warmEnd = performance.now() + plan.warmupMs;
  let calls = 0;
  for (; performance.now() < warmEnd; calls++) sink = c.fn();
  const callsPerRun = plan.callsPerRun(calls);
  const perOp: number[] = [];
  const cpuPerOp: number[] = [];
  for (let r = 0; r < plan.runs; r++) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < callsPerRun; i++) sink = c.fn();
    perOp.push(plan.perOp(start, callsPerRun));
    cpuPerOp.push(plan.cpuPerOp(cpu, callsPerRun));
  }
  return resultOf(c.name, perOp, cpuPerOp, callsPerRun);
}

/** The async variant, for cases that go through streams or promises. */
export async function measureAsync(c: { name: string; fn: () => Promise<unknown>; opsPerCall?: number }, opts: MicroOptions = {}): Promise<MicroResult> {
  const plan = planOf(opts, c.opsPerCall);
  const warmEnd = performance.now() + plan.warmupMs;
  let calls = 0;
  for (; performance.now() < warmEnd; calls++) sink = await c.fn();
  const callsPerRun = plan.callsPerRun(calls);
  const perOp: number[] = [];
  const cpuPerOp: number[] = [];
  for (let r = 0; r < plan.runs; r++) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < callsPerRun; i++) sink = await c.fn();
    perOp.push(plan.perOp(start, callsPerRun));
    cpuPerOp.push(plan.cpuPerOp(cpu, callsPerRun));
  }
  return resultOf(c.name, perOp, cpuPerOp, callsPerRun);
}

function planOf(opts: MicroOptions, opsPerCall = 1) {
  const warmupMs = opts.warmupMs ?? 300;
  const runMs = opts.runMs ?? 200;
  return {
    warmupMs,
    runs: opts.runs ?? 7,
    /** Calls per run so that one run lasts about runMs, from the warm-up's pace. */
    callsPerRun: (warmupCalls: number) => Math.max(1, Math.round((warmupCalls / warmupMs) * runMs)),
    perOp: (start: bigint, calls: number) => Number(process.hrtime.bigint() - start) / (calls * opsPerCall),
    cpuPerOp: (start: NodeJS.CpuUsage, calls: number) => {
      const used = process.cpuUsage(start);
      return ((used.user + used.system) * 1000) / (calls * opsPerCall);
    },
  };
}

function resultOf(name: string, perOp: number[], cpuPerOp: number[], callsPerRun: number): MicroResult {
  perOp.sort((a, b) => a - b);
  cpuPerOp.sort((a, b) => a - b);
  return { name, nsPerOp: perOp[perOp.length >> 1]!, cpuNsPerOp: cpuPerOp[cpuPerOp.length >> 1]!, minNs: perOp[0]!, maxNs: perOp[perOp.length - 1]!, runs: perOp.length, callsPerRun };
}

export function formatResults(title: string, results: readonly MicroResult[]): string {
  const lines = [`${title}`, '| case | median per op | min | max |', '|---|---:|---:|---:|'];
  for (const r of results) lines.push(`| ${r.name} | ${ns(r.nsPerOp)} | ${ns(r.minNs)} | ${ns(r.maxNs)} |`);
  return lines.join('\n');
}

function ns(v: number): string {
  return v >= 1e6 ? `${(v / 1e6).toFixed(2)} ms` : v >= 1e3 ? `${(v / 1e3).toFixed(2)} µs` : `${v.toFixed(0)} ns`;
}

/** Keeps the last result reachable, so no engine can prove the work useless. */
export function lastResult(): unknown {
  return sink;
}

/** True when the module at metaUrl is the process entry (a micro file run on its own). */
export function isMain(metaUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && metaUrl === pathToFileURL(resolve(entry)).href;
}
