// Turns a bench run into target checks and markdown tables.
import { cpus, totalmem } from 'node:os';
import { BEDROCK_EVENT_GOAL_US } from './micro/bedrock-stream.js';
import type { MicroResult } from './micro/harness.js';
import type { BenchOptions } from './options.js';
import type { LatencyResult } from './phases/latency.js';
import type { MemoryResult } from './phases/memory.js';
import type { PoolResult } from './phases/pool.js';
import type { StreamsResult } from './phases/streams.js';
import type { ScenarioResult, TargetResult } from './results.js';
import { MiB, round } from './results.js';

export interface TargetCheck {
  name: string;
  goal: string;
  measured: string;
  /** null: the phase that measures it did not run. */
  pass: boolean | null;
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; platform: string };
  options: BenchOptions;
  scenarios: ScenarioResult[];
  pool: PoolResult | null;
  latency: LatencyResult[];
  streams: StreamsResult[];
  memory: MemoryResult | null;
  micro: MicroResult[];
  targets: TargetCheck[];
  /** With --profile: a flame graph (SVG) of each process's CPU profile. */
  flameGraphs?: string[];
}

export function machine(): BenchResults['machine'] {
  const list = cpus();
  return { cpu: list[0]?.model.trim() ?? 'unknown', cores: list.length, memoryGiB: round(totalmem() / 1024 / MiB, 1), node: process.version, platform: `${process.platform} ${process.arch}` };
}

/**
 * CPU per request against the bare pass-through's, per scenario: the floor itself is the goal, and a
 * byte-for-byte relay (the messages surface) has less excuse to stay above it than a translation.
 */
const CPU_RATIO_GOALS: ReadonlyArray<readonly [string, number]> = [
  ['messages', 1.1],
  ['chat', 1.2],
  ['messages-stream', 1.15],
  ['chat-stream', 1.3],
  ['agent-turn', 1.2],
  ['chat-agent-turn', 1.35],
];

export function checkTargets(r: Omit<BenchResults, 'targets'>): TargetCheck[] {
  const scenario = (name: string) => r.scenarios.find((s) => s.name === name);
  const latency = (name: string) => r.latency.find((l) => l.scenario === name);
  const checks: TargetCheck[] = [];
  const ratio = (name: string, goal: number) => {
    const s = scenario(name);
    checks.push({ name: `${name}: gateway throughput / pass-through`, goal: `≥ ${goal}`, measured: s ? `${s.ratios.gatewayToPassthrough}` : '-', pass: s ? s.ratios.gatewayToPassthrough >= goal : null });
  };
  ratio('messages', 0.85);
  ratio('chat', 0.75);
  const added = (name: string, what: string, p50: number, p99: number) => {
    const l = latency(name);
    checks.push({ name: `${name}: ${what} p50 at 1 connection`, goal: `≤ ${p50} ms`, measured: l ? `${l.added.gateway.p50} ms` : '-', pass: l ? l.added.gateway.p50 <= p50 : null });
    checks.push({ name: `${name}: ${what} p99 at 1 connection`, goal: `≤ ${p99} ms`, measured: l ? `${l.added.gateway.p99} ms` : '-', pass: l ? l.added.gateway.p99 <= p99 : null });
  };
  for (const name of ['messages', 'chat']) added(name, 'added', 0.25, 0.5);
  for (const name of ['messages-stream', 'chat-stream']) added(name, 'time to first token added', 0.2, 0.5);
  for (const [name, goal] of CPU_RATIO_GOALS) {
    const s = scenario(name);
    const cpuRatio = s?.ratios.cpuGatewayToPassthrough ?? NaN;
    checks.push({
      name: `${name}: CPU per request, gateway / pass-through (median of the rounds' ratios)`,
      goal: `≤ ${goal}`,
      measured: s
        ? `${cpuRatio} (rounds ${s.ratios.cpuRatioRounds.join(', ')}; all rounds pooled ${s.targets.gateway.proxy!.cpuUsPerRequest} µs vs ${s.targets.passthrough.proxy!.cpuUsPerRequest} µs)`
        : '-',
      pass: s ? cpuRatio <= goal : null,
    });
  }
  const worstStreams = r.streams.reduce<StreamsResult | null>((w, s) => (w === null || s.targets.gateway.rssPeakMiB > w.targets.gateway.rssPeakMiB ? s : w), null);
  checks.push({
    name: `open streams held at once (${r.options.openStreams})`,
    goal: 'all held, gateway RSS ≤ 300 MiB',
    measured: worstStreams ? `${Math.min(...r.streams.map((s) => s.gatewayHeld))} held, ${worstStreams.targets.gateway.rssPeakMiB} MiB (${worstStreams.scenario})` : '-',
    pass: worstStreams ? worstStreams.targets.gateway.rssPeakMiB <= 300 && r.streams.every((s) => s.gatewayHeld >= s.streams) : null,
  });
  const reframe = r.micro.find((m) => m.name.includes('per upstream event'));
  checks.push({ name: 're-framing per upstream event (micro)', goal: '≤ 5 µs', measured: reframe ? `${round(reframe.nsPerOp / 1000, 2)} µs` : '-', pass: reframe ? reframe.nsPerOp <= 5000 : null });
  const bedrock = r.micro.find((m) => m.name.startsWith('BedrockStreamDecoder'));
  checks.push({
    name: 'Bedrock event stream → SSE, per event (micro, CPU time)',
    goal: `≤ ${BEDROCK_EVENT_GOAL_US} µs`,
    measured: bedrock ? `${round(bedrock.cpuNsPerOp / 1000, 2)} µs (wall ${round(bedrock.nsPerOp / 1000, 2)} µs)` : '-',
    pass: bedrock ? bedrock.cpuNsPerOp <= BEDROCK_EVENT_GOAL_US * 1000 : null,
  });
  const mix = scenario('chat-1mib-mix');
  const mixEld = r.pool ? r.pool.variants[r.pool.winner].eldP99Ms : mix ? mix.targets.gateway.proxy!.eldP99Ms : null;
  checks.push({
    name: 'event-loop delay p99 with 1 MiB bodies mixed in',
    goal: '≤ 10 ms',
    measured: mixEld === null ? '-' : `${mixEld} ms${r.pool ? ` (${r.pool.winner}, the pool phase's winner)` : ''}`,
    pass: mixEld === null ? null : mixEld <= 10,
  });
  const m = r.memory;
  const flat = m ? m.heapGrowthMiB <= Math.max(2, m.series[0]!.heapMiB * 0.1) : null;
  checks.push({ name: `flat memory over ${r.options.memoryRequests} requests`, goal: 'heap after GC grows ≤ max(2 MiB, 10%)', measured: m ? `heap ${m.heapGrowthMiB >= 0 ? '+' : ''}${m.heapGrowthMiB} MiB, RSS ${m.rssGrowthMiB >= 0 ? '+' : ''}${m.rssGrowthMiB} MiB` : '-', pass: flat });
  return checks;
}

export function markdown(r: BenchResults): string {
  const out: string[] = [];
  const m = r.machine;
  out.push(`Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}. ${r.options.connections} connections, ${r.options.durationSec} s × ${r.options.rounds} rounds per target; gateway LOG_LEVEL=${r.options.logLevel}.`, '');
  if (r.scenarios.length > 0) {
    out.push('| scenario | direct req/s | pass-through req/s | gateway req/s | gw/pt | gw/direct | p50 / p99 ms direct · pt · gw | TTFT p50 / p99 ms pt · gw | CPU µs/req pt · gw | gw RSS peak MiB | gw ELD p99 ms |');
    out.push('|---|---:|---:|---:|---:|---:|---|---|---|---:|---:|');
    for (const s of r.scenarios) {
      const { direct, passthrough: pt, gateway: gw } = s.targets;
      out.push(
        `| ${s.name} | ${round(direct.rps, 0)} | ${round(pt.rps, 0)} | ${round(gw.rps, 0)} | ${s.ratios.gatewayToPassthrough} | ${s.ratios.gatewayToDirect} | ${lat(direct)} · ${lat(pt)} · ${lat(gw)} | ${ttft(pt)} · ${ttft(gw)} | ${pt.proxy!.cpuUsPerRequest} · ${gw.proxy!.cpuUsPerRequest} | ${gw.proxy!.rssPeakMiB} | ${gw.proxy!.eldP99Ms} |`,
      );
    }
    out.push('', '| garbage collection (main thread) | full collections pt · gw | scavenges pt · gw | GC pause µs/req pt · gw | promoted B/req pt · gw |', '|---|---|---|---|---|');
    for (const s of r.scenarios) {
      const pt = s.targets.passthrough.proxy!.gc;
      const gw = s.targets.gateway.proxy!.gc;
      out.push(`| ${s.name} | ${pt.fullCollections} · ${gw.fullCollections} | ${pt.scavenges} · ${gw.scavenges} | ${pt.pauseUsPerRequest} · ${gw.pauseUsPerRequest} | ${pt.promotedBytesPerRequest} · ${gw.promotedBytesPerRequest} |`);
    }
    const mix = r.scenarios.find((s) => s.targets.gateway.mixIn !== null);
    if (mix) {
      const b = (t: TargetResult) => `${round(t.mixIn!.rps, 1)} req/s, p99 ${round(t.mixIn!.latencyMs.p99, 1)} ms`;
      out.push('', `1 MiB bodies alongside (${mix.name}): direct ${b(mix.targets.direct)}; pass-through ${b(mix.targets.passthrough)}; gateway ${b(mix.targets.gateway)}.`);
    }
    out.push('');
  }
  if (r.pool) {
    out.push(`| 1 MiB mix, gateway (${r.pool.scenario}) | small req/s | small p50 / p99 ms | 1 MiB req/s | 1 MiB p99 ms | ELD p99 / max ms | CPU µs/req | RSS peak MiB |`, '|---|---:|---|---:|---:|---|---:|---:|');
    for (const [name, v] of Object.entries(r.pool.variants)) {
      const label = name === 'pool' ? `pool, ${r.pool.threads} thread(s)` : 'inline';
      out.push(`| ${label}${r.pool.winner === name ? ' (wins)' : ''} | ${v.smallRps} | ${v.smallP50Ms} / ${v.smallP99Ms} | ${v.largeRps} | ${v.largeP99Ms} | ${v.eldP99Ms} / ${v.eldMaxMs} | ${v.cpuUsPerRequest} | ${v.rssPeakMiB} |`);
    }
    out.push('');
  }
  if (r.latency.length > 0) {
    out.push('| one connection | direct p50 / p99 ms | pass-through p50 / p99 | gateway p50 / p99 | gateway adds p50 / p99 ms |', '|---|---|---|---|---|');
    for (const l of r.latency) {
      const f = (t: keyof LatencyResult['targets']) => `${round(l.targets[t].p50, 3)} / ${round(l.targets[t].p99, 3)}`;
      out.push(`| ${l.scenario}${l.measure === 'ttft' ? ' (first token)' : ''} | ${f('direct')} | ${f('passthrough')} | ${f('gateway')} | +${l.added.gateway.p50} / +${l.added.gateway.p99} |`);
    }
    out.push('');
  }
  if (r.streams.length > 0) {
    out.push('| open streams | held by gateway | all open after | pass-through RSS peak MiB | gateway RSS before → peak MiB | gateway CPU cores |', '|---|---:|---:|---:|---|---:|');
    for (const s of r.streams) out.push(`| ${s.streams} × ${s.scenario} | ${s.gatewayHeld} | ${s.rampSec} s | ${s.targets.passthrough.rssPeakMiB} | ${s.targets.gateway.rssBeforeMiB} → ${s.targets.gateway.rssPeakMiB} | ${s.targets.gateway.cpuCores} |`);
    out.push('');
  }
  if (r.memory) out.push(`Memory over ${r.memory.requests} gateway requests (heap after GC, MiB): ${r.memory.series.map((p) => p.heapMiB).join(' → ')}; RSS ${r.memory.series[0]!.rssMiB} → ${r.memory.series[r.memory.series.length - 1]!.rssMiB} MiB.`, '');
  if (r.micro.length > 0) {
    out.push('| micro-benchmark | median per op |', '|---|---:|');
    for (const x of r.micro) out.push(`| ${x.name} | ${round(x.nsPerOp / 1000, 3)} µs |`);
    out.push('');
  }
  out.push(targetsTable(r));
  return out.join('\n');
}

/** Each target with its goal, what this run measured, and whether it was met. */
export function targetsTable(r: Pick<BenchResults, 'targets'>): string {
  const out = ['| target | goal | measured | |', '|---|---|---|---|'];
  for (const c of r.targets) out.push(`| ${c.name} | ${c.goal} | ${c.measured} | ${c.pass === null ? 'not run' : c.pass ? 'met' : '**missed**'} |`);
  return out.join('\n');
}

function lat(t: TargetResult): string {
  return `${round(t.latencyMs.p50, 2)} / ${round(t.latencyMs.p99, 2)}`;
}

function ttft(t: TargetResult): string {
  return t.ttftMs === null ? '-' : `${round(t.ttftMs.p50, 2)} / ${round(t.ttftMs.p99, 2)}`;
}
