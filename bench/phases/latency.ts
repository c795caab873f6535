// Added latency at one connection: a lone client's requests, one after another, to each target,
// interleaved over rounds. What the gateway adds is its p50/p99 minus the simulator's own.
import type { Summary } from '../percentiles.js';
import { Samples } from '../percentiles.js';
import { runProbe } from '../probe.js';
import { round } from '../results.js';
import type { Scenario } from '../scenarios.js';
import type { Processes, TargetName } from '../targets.js';
import { requestFor, TARGETS, targetOf } from '../targets.js';
import { rotate } from './scenarios.js';

export interface LatencyResult {
  scenario: string;
  targets: Record<TargetName, Summary>;
  /** Milliseconds over the simulator direct. */
  added: Record<'passthrough' | 'gateway', { p50: number; p99: number }>;
}

export interface LatencyPhaseOptions {
  probeSec: number;
  rounds: number;
  log: (line: string) => void;
}

const WARMUP_REQUESTS = 500;

export async function runLatencyPhase(p: Processes, scenarios: readonly Scenario[], opts: LatencyPhaseOptions): Promise<LatencyResult[]> {
  const results: LatencyResult[] = [];
  for (const scenario of scenarios) {
    const samples: Record<TargetName, Samples> = { direct: new Samples(), passthrough: new Samples(), gateway: new Samples() };
    const probe = (target: TargetName, durationMs: number, maxRequests?: number) =>
      runProbe({ url: targetOf(p, target).url, request: requestFor(scenario, target), expectStatus: scenario.expectStatus, stream: null, durationMs, maxRequests });
    for (const target of TARGETS) await probe(target, opts.probeSec * 1000, WARMUP_REQUESTS);
    for (let r = 0; r < opts.rounds; r++) {
      for (const target of rotate(TARGETS, r)) samples[target].addAll((await probe(target, opts.probeSec * 1000)).latencyMs);
    }
    const targets = { direct: samples.direct.summary(), passthrough: samples.passthrough.summary(), gateway: samples.gateway.summary() };
    const added = (t: 'passthrough' | 'gateway') => ({
      p50: round(targets[t].p50 - targets.direct.p50, 3),
      p99: round(targets[t].p99 - targets.direct.p99, 3),
    });
    const result = { scenario: scenario.name, targets, added: { passthrough: added('passthrough'), gateway: added('gateway') } };
    opts.log(`latency ${scenario.name}: gateway adds p50 ${result.added.gateway.p50} ms, p99 ${result.added.gateway.p99} ms`);
    results.push(result);
  }
  return results;
}
