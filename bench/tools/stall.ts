// A stall at one connection: five 5-second runs of one client sending chat requests one after another
// over one connection, through the bare pass-through and through the gateway (SQLite file, usage write
// thread, LOG_LEVEL=info) in turn, in front of the simulator answering at once. Per run and target:
// p50, p99 and the maximum, with each proxy's event-loop delay maximum and longest GC pause over the
// same window, so a slow request can be told from a blocked loop. Writes its section of bench/RESULTS.md.
//
// With --pin, the proxy being measured has the last core to itself (every thread of it, by taskset)
// and the client, the simulator and the idle proxy share the others: on a 2-core machine, three busy
// processes otherwise take turns on two cores, and a request's maximum measures that wait.
//
//   node dist/bench/tools/stall.js [--runs 5] [--duration 5] [--warmup 3] [--pin] [--results-file bench/RESULTS.md] [--no-write]
import { cpus, loadavg } from 'node:os';
import { allowedCpus, pinMeasuredAlone } from '../pinning.js';
import { parseArgs } from 'node:util';
import { RECORD_GC_PAUSES_ENV } from '../ipc.js';
import { rotate } from '../phases/scenarios.js';
import { runProbe, type ProbeSpec } from '../probe.js';
import { round } from '../results.js';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import { buildScenarios } from '../scenarios.js';
import { requestFor, startProcesses, targetOf, UPSTREAM_KEY, type Processes } from '../targets.js';

export const SECTION = 'stall';
/** What the gateway's maximum must stay under in every run (issue 21, item 8). */
export const MAX_BUDGET_MS = 5;

const PROXIES = ['passthrough', 'gateway'] as const;
type Proxy = (typeof PROXIES)[number];

export interface StallOptions {
  runs: number;
  durationSec: number;
  /** Seconds of requests to each proxy before the first run (its code optimised, its start-up collections over). */
  warmupSec: number;
  /** Give the measured proxy a core of its own (taskset), the rest of the processes the other cores. */
  pin: boolean;
}

export interface TargetRun {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The proxy's event-loop delay maximum over the run, beyond the 5 ms sampling interval. */
  eldMaxMs: number;
  /** The proxy's longest garbage-collection pause over the run. */
  gcMaxMs: number;
  /** The cores the proxy was allowed to run on, read back from the kernel at the end of the run. */
  cpus: string;
}

export type StallRun = Record<Proxy, TargetRun>;

export interface StallReport {
  startedAt: string;
  /** The machine's 1-, 5- and 15-minute load averages at the start and at the end. */
  loadBefore: number[];
  loadAfter: number[];
  cores: number;
  node: string;
  durationSec: number;
  warmupSec: number;
  pinned: boolean;
  runs: StallRun[];
}

export async function runStall(opts: StallOptions): Promise<StallReport> {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg().map((l) => round(l, 2));
  const p = await startProcesses({ logLevel: 'info', gatewayEnv: {}, profileDir: null, childEnv: { [RECORD_GC_PAUSES_ENV]: '1' } });
  try {
    const chat = buildScenarios({ gatewayKey: p.gatewayKey, upstreamKey: UPSTREAM_KEY }).find((s) => s.name === 'chat')!;
    const probeOf = (proxy: Proxy): Omit<ProbeSpec, 'durationMs'> => ({ url: targetOf(p, proxy).url, request: requestFor(chat, proxy), expectStatus: chat.expectStatus, stream: null });
    // A freshly started process makes its large collections of the start-up heap in its first second
    // (11–14 ms on a quiet machine, ~90 ms on a loaded one): they belong to the warm-up, not to a run.
    // (A forced full collection after a shorter warm-up was followed by a 21 ms one mid-run.)
    for (const proxy of PROXIES) await runProbe({ ...probeOf(proxy), durationMs: opts.warmupSec * 1000 });
    const runs: StallRun[] = [];
    for (let r = 0; r < opts.runs; r++) {
      const run: Partial<StallRun> = {};
      // The order alternates, so neither proxy always runs first after the other.
      for (const proxy of rotate(PROXIES, r)) {
        if (opts.pin) pinAlone(p, proxy);
        run[proxy] = await measure(p, proxy, { ...probeOf(proxy), durationMs: opts.durationSec * 1000 });
      }
      runs.push(run as StallRun);
    }
    return { startedAt, loadBefore, loadAfter: loadavg().map((l) => round(l, 2)), cores: cpus().length, node: process.version, durationSec: opts.durationSec, warmupSec: opts.warmupSec, pinned: opts.pin, runs };
  } finally {
    await p.close();
  }
}

/** The proxy's every thread on the last core; this process, the simulator and the other proxy on the rest. */
function pinAlone(p: Processes, proxy: Proxy): void {
  pinMeasuredAlone([targetOf(p, proxy).proxy!.pid], [process.pid, p.simulator.pid, targetOf(p, PROXIES.find((x) => x !== proxy)!).proxy!.pid]);
}

async function measure(p: Processes, proxy: Proxy, probe: ProbeSpec): Promise<TargetRun> {
  const child = targetOf(p, proxy).proxy!;
  await child.reset();
  await child.gcPauses(); // only this run's pauses
  const result = await runProbe(probe);
  const stats = await child.stats();
  const pauses = await child.gcPauses();
  if (result.unexpected > 0) throw new Error(`${proxy}: ${result.unexpected} answers without status ${probe.expectStatus}`);
  const latency = result.latencyMs.summary();
  return {
    requests: latency.count,
    p50Ms: round(latency.p50, 3),
    p99Ms: round(latency.p99, 3),
    maxMs: round(latency.max, 3),
    eldMaxMs: round(stats.eldMaxMs, 2),
    gcMaxMs: round(pauses.reduce((longest, pause) => Math.max(longest, pause.durationMs), 0), 2),
    cpus: allowedCpus(child.pid),
  };
}

/** The markdown of the tool's section of bench/RESULTS.md. */
export function formatStall(r: StallReport): string {
  const triple = (t: TargetRun) => `${t.p50Ms} / ${t.p99Ms} / ${t.maxMs}`;
  const rows = r.runs.map((run, i) =>
    `| ${i + 1} | ${triple(run.passthrough)} | ${triple(run.gateway)} | ${run.passthrough.eldMaxMs} · ${run.gateway.eldMaxMs} | ${run.passthrough.gcMaxMs} · ${run.gateway.gcMaxMs} | ${run.passthrough.requests} · ${run.gateway.requests} |`,
  );
  const under = r.runs.filter((run) => run.gateway.maxMs < MAX_BUDGET_MS).length;
  const worst = (proxy: Proxy) => Math.max(...r.runs.map((run) => run[proxy].maxMs));
  return [
    '## A stall at one connection (`tools/stall.ts`)',
    '',
    `${r.startedAt.slice(0, 16).replace('T', ' ')} UTC; ${r.cores} cores, load average ${r.loadBefore.join(' / ')} at the start and ${r.loadAfter.join(' / ')} at the end (1, 5, 15 min); Node ${r.node}.`,
    `Chat, non-streamed, one client sending one request after another over one connection, ${r.durationSec} s per proxy per run, the order alternating;`,
    'the simulator answers at once; the gateway on a SQLite file (usage rows and last-use times written by its write thread), `LOG_LEVEL=info`;',
    `each proxy warmed up for ${r.warmupSec} s before the first run.`,
    ...(r.pinned ? ['Pinned (`--pin`): the proxy being measured had core ' + (r.cores - 1) + ' to itself; the client, the simulator and the idle proxy shared the other cores.'] : []),
    '',
    '| run | pass-through p50 / p99 / max ms | gateway p50 / p99 / max ms | event-loop delay max ms, pt · gw | longest GC pause ms, pt · gw | requests, pt · gw |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Gateway maximum under ${MAX_BUDGET_MS} ms in ${under} of ${r.runs.length} runs (worst ${worst('gateway')} ms; the pass-through's worst ${worst('passthrough')} ms).`,
  ].join('\n');
}

if (process.argv[1]?.endsWith('stall.js')) {
  const { values } = parseArgs({
    options: { runs: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' }, pin: { type: 'boolean' }, 'results-file': { type: 'string' }, 'no-write': { type: 'boolean' } },
  });
  const report = await runStall({ runs: Number(values.runs ?? 5), durationSec: Number(values.duration ?? 5), warmupSec: Number(values.warmup ?? 3), pin: values.pin === true });
  const section = formatStall(report);
  console.log(section);
  if (values['no-write'] !== true) writeSection(values['results-file'] ?? RESULTS_FILE, SECTION, section);
}
