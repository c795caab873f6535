// Where the one-connection latency tail comes from. The latency phase's probes (one client, one
// connection, each target in turn over rotating rounds) with every process recording its GC pauses on
// the wall clock: for each target's slowest requests, how many a pause of the client, the simulator,
// the pass-through or the gateway overlapped, and how many nothing in any process explains. A CPU
// profile cannot answer this: a slow request's lost time is mostly time no process was running.
// The gateway runs at log level debug, its access lines (written to a file) giving each request's
// time inside the gateway, when its call was dispatched and when the answer's headers came, so each
// of the gateway's requests splits into: outside the gateway, the gateway's work before the call, the
// upstream leg, and the gateway's work after the answer came. Around every probe it also reads the
// kernel's schedstat of each process: CPU time per request, and time spent runnable waiting for a CPU.
//
//   node dist/bench/tools/tail.js [--scenario chat] [--rounds 3] [--duration 4] [--slowest 0.01]
//                                 [--gateway-env NAME=VALUE]…  (settings for the gateway, to compare)
//                                 [--gateway-node-flag FLAG]…  (node flags for the gateway over the served ones)
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Pause } from '../gc-pauses.js';
import { recordGcPauses } from '../gc-pauses.js';
import { RECORD_GC_PAUSES_ENV } from '../ipc.js';
import { gatewaySettings } from '../options.js';
import { oneConnectionLatency, type ProbeTarget } from '../phases/latency.js';
import type { Summary } from '../percentiles.js';
import { round } from '../results.js';
import { buildScenarios } from '../scenarios.js';
import type { SchedTimes } from '../schedstat.js';
import { readSchedTimes, schedDelta } from '../schedstat.js';
import type { GatewaySide, TailAttribution, TimedRequest, WhereSpent } from '../tail-attribution.js';
import { attributeTail, whereSpent } from '../tail-attribution.js';
import { requestFor, startProcesses, TARGETS, targetOf, UPSTREAM_KEY, type TargetName } from '../targets.js';

/** Every process a request can wait on: the probing client and the three children. */
export const PAUSING = ['client', 'simulator', 'passthrough', 'gateway'] as const;
export type Pausing = (typeof PAUSING)[number];

export interface PauseStats {
  count: number;
  meanMs: number;
  maxMs: number;
}

/** Microseconds per request of one process while a target was probed (null: no schedstat here). */
export interface SchedPerRequest {
  runUs: number;
  waitUs: number;
  mainRunUs: number;
  mainWaitUs: number;
}

export interface TailTarget {
  latencyMs: Summary;
  sched: Record<Pausing, SchedPerRequest> | null;
  /** p99 over the simulator direct's p99 (0 for direct itself). */
  addedP99Ms: number;
  slowest: TailAttribution;
}

export interface TailReport {
  scenario: string;
  slowestFraction: number;
  targets: Record<TargetName, TailTarget>;
  pauses: Record<Pausing, PauseStats>;
  /** The gateway's requests by where their time went: all of them, and its slowest. */
  gatewayTime: { all: WhereSpent; slowest: WhereSpent };
}

export interface TailOptions {
  scenario: string;
  rounds: number;
  durationSec: number;
  /** Which slowest share of each target's requests to examine (0.01: the requests at or past p99). */
  slowestFraction: number;
  warmupRequests: number;
  /** Extra gateway settings. */
  gatewayEnv: Record<string, string>;
  /** Extra node flags for the gateway (after `npm start`'s own). */
  gatewayNodeFlags?: string[];
}

export async function runTail(opts: TailOptions): Promise<TailReport> {
  const logDir = mkdtempSync(join(tmpdir(), 'mgw-tail-'));
  const logFile = join(logDir, 'gateway.log');
  const logFd = openSync(logFile, 'w');
  const p = await startProcesses({ logLevel: 'debug', gatewayEnv: opts.gatewayEnv, gatewayNodeFlags: opts.gatewayNodeFlags, profileDir: null, childEnv: { [RECORD_GC_PAUSES_ENV]: '1' }, gatewayStdout: logFd }).catch((err: unknown) => {
    closeSync(logFd);
    throw err;
  });
  const client = recordGcPauses();
  try {
    const scenario = buildScenarios({ gatewayKey: p.gatewayKey, upstreamKey: UPSTREAM_KEY }).find((s) => s.name === opts.scenario);
    if (scenario === undefined) throw new Error(`no scenario "${opts.scenario}"`);
    const contender = (t: TargetName): ProbeTarget => ({ url: targetOf(p, t).url, request: requestFor(scenario, t), expectStatus: scenario.expectStatus });
    const requests: Record<TargetName, TimedRequest[]> = { direct: [], passthrough: [], gateway: [] };
    const pids: Record<Pausing, number> = { client: process.pid, simulator: p.simulator.pid, passthrough: p.passthrough.pid, gateway: p.gateway.pid };
    const sched = { direct: new SchedTally(), passthrough: new SchedTally(), gateway: new SchedTally() };
    let before: Record<Pausing, SchedTimes | null> | null = null;
    const snapshot = () => Object.fromEntries(PAUSING.map((n) => [n, readSchedTimes(pids[n])])) as Record<Pausing, SchedTimes | null>;
    const measured = await oneConnectionLatency(
      { direct: contender('direct'), passthrough: contender('passthrough'), gateway: contender('gateway') },
      TARGETS,
      {
        probeSec: opts.durationSec,
        rounds: opts.rounds,
        warmupRequests: opts.warmupRequests,
        onProbeStart: () => {
          before = snapshot();
        },
        onProbe: (name, result) => {
          if (before !== null) sched[name as TargetName].add(before, snapshot(), result.latencyMs.size);
          const starts = result.startedAtMs.values();
          const durations = result.latencyMs.values();
          for (let i = 0; i < durations.length; i++) requests[name as TargetName].push({ startMs: starts[i]!, durationMs: durations[i]! });
        },
      },
    );
    const pauses: Record<Pausing, Pause[]> = {
      client: client.take(),
      simulator: await p.simulator.gcPauses(),
      passthrough: await p.passthrough.gcPauses(),
      gateway: await p.gateway.gcPauses(),
    };
    // The gateway writes its last lines as it exits (closing again in `finally` does nothing).
    await p.close();
    const gatewaySide = accessLines(readFileSync(logFile, 'utf8'), scenario.surface).slice(-requests.gateway.length);
    const target = (t: TargetName): TailTarget => ({
      latencyMs: measured.targets[t],
      sched: sched[t].perRequest(),
      addedP99Ms: t === 'direct' ? 0 : measured.added[t].p99,
      slowest: attributeTail(requests[t], pauses, opts.slowestFraction),
    });
    return {
      scenario: opts.scenario,
      slowestFraction: opts.slowestFraction,
      targets: { direct: target('direct'), passthrough: target('passthrough'), gateway: target('gateway') },
      pauses: { client: pauseStats(pauses.client), simulator: pauseStats(pauses.simulator), passthrough: pauseStats(pauses.passthrough), gateway: pauseStats(pauses.gateway) },
      gatewayTime: whereSpent(requests.gateway, gatewaySide, opts.slowestFraction),
    };
  } finally {
    client.stop();
    await p.close();
    closeSync(logFd);
    rmSync(logDir, { recursive: true, force: true });
  }
}

/** The access lines of one surface's requests, in the order they were written. */
export function accessLines(log: string, surface: string): GatewaySide[] {
  const lines: GatewaySide[] = [];
  for (const text of log.split('\n')) {
    if (!text.includes('"msg":"request"')) continue;
    const line = JSON.parse(text) as { surface?: string } & Partial<GatewaySide>;
    const { durationMs, upstreamSentMs, upstreamMs } = line;
    if (line.surface !== surface || durationMs === undefined || upstreamSentMs === undefined || upstreamMs === undefined) continue;
    lines.push({ durationMs, upstreamSentMs, upstreamMs });
  }
  return lines;
}

/** Schedstat deltas of every process over one target's probes, and how many requests they served. */
export class SchedTally {
  private readonly total: Partial<Record<Pausing, SchedTimes>> = {};
  private requests = 0;
  private complete = true;

  add(before: Record<Pausing, SchedTimes | null>, after: Record<Pausing, SchedTimes | null>, requests: number): void {
    this.requests += requests;
    for (const n of PAUSING) {
      const b = before[n];
      const a = after[n];
      if (a === null || b === null) {
        this.complete = false;
        continue;
      }
      const d = schedDelta(a, b);
      const sum = (this.total[n] ??= { runNs: 0, waitNs: 0, mainRunNs: 0, mainWaitNs: 0 });
      sum.runNs += d.runNs;
      sum.waitNs += d.waitNs;
      sum.mainRunNs += d.mainRunNs;
      sum.mainWaitNs += d.mainWaitNs;
    }
  }

  perRequest(): Record<Pausing, SchedPerRequest> | null {
    if (!this.complete || this.requests === 0) return null;
    const us = (ns: number) => round(ns / this.requests / 1000, 1);
    const of = (n: Pausing): SchedPerRequest => {
      const t = this.total[n] ?? { runNs: 0, waitNs: 0, mainRunNs: 0, mainWaitNs: 0 };
      return { runUs: us(t.runNs), waitUs: us(t.waitNs), mainRunUs: us(t.mainRunNs), mainWaitUs: us(t.mainWaitNs) };
    };
    return { client: of('client'), simulator: of('simulator'), passthrough: of('passthrough'), gateway: of('gateway') };
  }
}

export function pauseStats(pauses: readonly Pause[]): PauseStats {
  let total = 0;
  let max = 0;
  for (const p of pauses) {
    total += p.durationMs;
    if (p.durationMs > max) max = p.durationMs;
  }
  return { count: pauses.length, meanMs: pauses.length === 0 ? 0 : round(total / pauses.length, 3), maxMs: round(max, 3) };
}

export function formatTail(r: TailReport): string {
  const share = `${round(r.slowestFraction * 100, 2)}%`;
  const lines = [
    `One connection, scenario ${r.scenario}: each target's slowest ${share} of requests, and how many a GC pause of each process overlapped.`,
    '',
    `| target | requests | p50 / p99 ms | added p99 ms | slowest ${share} from ms | ${PAUSING.join(' | ')} | no pause |`,
    `|---|---|---|---|---|${PAUSING.map(() => '---|').join('')}---|`,
  ];
  for (const t of TARGETS) {
    const x = r.targets[t];
    const cells = PAUSING.map((n) => String(x.slowest.overlapping[n] ?? 0));
    lines.push(
      `| ${t} | ${x.latencyMs.count} | ${round(x.latencyMs.p50, 3)} / ${round(x.latencyMs.p99, 3)} | ${t === 'direct' ? '–' : x.addedP99Ms} | ${round(x.slowest.fromMs, 3)} | ${cells.join(' | ')} | ${x.slowest.unexplained} of ${x.slowest.count} |`,
    );
  }
  lines.push('', `GC pauses over the run (all targets): ${PAUSING.map((n) => `${n} ${r.pauses[n].count} (mean ${r.pauses[n].meanMs} ms, max ${r.pauses[n].maxMs} ms)`).join(' · ')}`);
  const ms = (v: number) => round(v, 3);
  const row = (label: string, w: WhereSpent) =>
    `| ${label} (${w.count}) | ${ms(w.clientMs)} | ${ms(w.outsideGatewayMs)} | ${ms(w.beforeCallMs)} | ${ms(w.upstreamMs)} | ${ms(w.afterAnswerMs)} |`;
  lines.push(
    '',
    'Where the gateway\'s requests spent their time (means, ms; the gateway\'s access lines against the client\'s clock):',
    '',
    '| gateway requests | client latency | outside the gateway | gateway, before the call | upstream leg | gateway, after the answer |',
    '|---|---|---|---|---|---|',
    row('all', r.gatewayTime.all),
    row(`slowest ${share}`, r.gatewayTime.slowest),
  );
  if (TARGETS.every((t) => r.targets[t].sched !== null)) {
    lines.push(
      '',
      'Per request, µs: CPU time (run) and time runnable but waiting for a CPU (wait) of each process, all its threads (main thread in brackets), from the kernel\'s schedstat:',
      '',
      `| target | mean latency | ${PAUSING.map((n) => `${n} run / wait`).join(' | ')} | all runs | all waits |`,
      `|---|---|${PAUSING.map(() => '---|').join('')}---|---|`,
    );
    for (const t of TARGETS) {
      const s = r.targets[t].sched!;
      const cell = (n: Pausing) => `${s[n].runUs} (${s[n].mainRunUs}) / ${s[n].waitUs} (${s[n].mainWaitUs})`;
      const runs = round(PAUSING.reduce((a, n) => a + s[n].runUs, 0), 1);
      const waits = round(PAUSING.reduce((a, n) => a + s[n].waitUs, 0), 1);
      lines.push(`| ${t} | ${round(r.targets[t].latencyMs.mean * 1000, 1)} µs | ${PAUSING.map(cell).join(' | ')} | ${runs} | ${waits} |`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'chat' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '4' },
      slowest: { type: 'string', default: '0.01' },
      'gateway-env': { type: 'string', multiple: true, default: [] },
      'gateway-node-flag': { type: 'string', multiple: true, default: [] },
    },
  });
  const report = await runTail({
    scenario: values.scenario,
    rounds: Number(values.rounds),
    durationSec: Number(values.duration),
    slowestFraction: Number(values.slowest),
    warmupRequests: 500,
    gatewayEnv: gatewaySettings(values['gateway-env']),
    gatewayNodeFlags: values['gateway-node-flag'],
  });
  console.log(formatTail(report));
}

if (process.argv[1]?.includes('bench/tools/tail')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
