// One whole bench run: start the processes, run the chosen phases, check the targets.
import type { BenchOptions } from './options.js';
import { runLatencyPhase } from './phases/latency.js';
import { runMemoryPhase } from './phases/memory.js';
import { runMicroPhase } from './phases/micro.js';
import { runPoolPhase } from './phases/pool.js';
import { runScenarioPhase } from './phases/scenarios.js';
import { runStreamsPhase } from './phases/streams.js';
import type { BenchResults } from './report.js';
import { checkTargets, machine } from './report.js';
import { buildScenarios } from './scenarios.js';
import { startProcesses, UPSTREAM_KEY } from './targets.js';
import { writeMissingFlameGraphs } from './tools/flamegraph.js';

export async function runBench(opts: BenchOptions, log: (line: string) => void): Promise<BenchResults> {
  const startedAtMs = Date.now();
  const startedAt = new Date(startedAtMs).toISOString();
  const profileDir = opts.profile ? `${opts.resultsDir}/profiles` : null;
  const p = await startProcesses({ logLevel: opts.logLevel, gatewayEnv: opts.gatewayEnv, profileDir });
  let results: BenchResults;
  try {
    const all = buildScenarios({ gatewayKey: p.gatewayKey, upstreamKey: UPSTREAM_KEY });
    const unknown = opts.scenarios.filter((n) => !all.some((s) => s.name === n));
    if (unknown.length > 0) throw new Error(`unknown scenario(s): ${unknown.join(', ')} (${all.map((s) => s.name).join(', ')})`);
    const chosen = opts.scenarios.length === 0 ? all : all.filter((s) => opts.scenarios.includes(s.name));
    const named = (...names: string[]) => chosen.filter((s) => names.includes(s.name));
    const has = (phase: BenchOptions['phases'][number]) => opts.phases.includes(phase);
    log(`simulator ${p.simulator.url}, pass-through ${p.passthrough.url}, gateway ${p.gateway.url} (pid ${p.gateway.pid})`);

    const scenarios = has('scenarios') ? await runScenarioPhase(p, chosen, { ...opts, log }) : [];
    const mix = named('chat-1mib-mix')[0];
    const pool = has('pool') && mix !== undefined ? await runPoolPhase(p, mix, { ...opts, threads: opts.poolThreads, log }) : null;
    const latency = has('latency') ? await runLatencyPhase(p, named('messages', 'chat', 'messages-stream', 'chat-stream'), { ...opts, log }) : [];
    const streams = has('streams') ? await runStreamsPhase(p, named('messages-stream', 'chat-stream'), { streams: opts.openStreams, holdSec: opts.holdSec, log }) : [];
    const memory = has('memory') ? await runMemoryPhase(p, chosen, { requests: opts.memoryRequests, connections: opts.connections, log }) : null;
    const micro = has('micro') ? await runMicroPhase(opts.durationSec < 2) : [];
    const partial = { startedAt, finishedAt: new Date().toISOString(), machine: machine(), options: opts, scenarios, pool, latency, streams, memory, micro };
    results = { ...partial, targets: checkTargets(partial) };
  } finally {
    await p.close();
  }
  // close() gathered the profiles the processes wrote as they exited.
  if (profileDir !== null) results.flameGraphs = writeMissingFlameGraphs(profileDir, startedAtMs);
  return results;
}
