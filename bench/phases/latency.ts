// Added latency at one connection: a lone client's requests, one after another, to each target,
// interleaved over rounds. What the gateway adds is its p50/p99 minus the simulator's own; for a
// streamed scenario the time measured is the time to first token (the first text delta).
import type { Summary } from '../percentiles.js';
import { Samples } from '../percentiles.js';
import type { ProbeResult } from '../probe.js';
import { runProbe } from '../probe.js';
import { round } from '../results.js';
import type { RequestSpec, Scenario, StreamShape } from '../scenarios.js';
import type { Processes, TargetName } from '../targets.js';
import { requestFor, TARGETS, targetOf } from '../targets.js';
import { rotate } from './scenarios.js';

export interface LatencyResult {
  scenario: string;
  /** What was timed: the whole answer, or (streamed scenarios) the time to the first token. */
  measure: 'latency' | 'ttft';
  targets: Record<TargetName, Summary>;
  /** Milliseconds over the simulator direct. */
  added: Record<'passthrough' | 'gateway', Added>;
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
    // The direct target and the pass-through speak the provider's stream; the gateway the surface's.
    const contender = (target: TargetName): ProbeTarget => ({
      url: targetOf(p, target).url,
      request: requestFor(scenario, target),
      expectStatus: scenario.expectStatus,
      stream: scenario.stream === null ? null : target === 'gateway' ? scenario.stream : 'messages',
    });
    const measure = scenario.stream === null ? 'latency' : 'ttft';
    const measured = await oneConnectionLatency(
      { direct: contender('direct'), passthrough: contender('passthrough'), gateway: contender('gateway') },
      TARGETS,
      { ...opts, warmupRequests: WARMUP_REQUESTS },
    );
    const result = { scenario: scenario.name, measure, ...measured } as const;
    opts.log(`latency ${scenario.name}${measure === 'ttft' ? ' (first token)' : ''}: gateway adds p50 ${result.added.gateway.p50} ms, p99 ${result.added.gateway.p99} ms`);
    results.push(result);
  }
  return results;
}

/** What one probe at a contender sends and expects. */
export interface ProbeTarget {
  url: string;
  request: RequestSpec;
  expectStatus: number;
  /** A stream's shape: its time to first token is what is timed (absent or null: the whole answer). */
  stream?: StreamShape | null;
}

/** Milliseconds over the simulator direct. */
export interface Added {
  p50: number;
  p99: number;
}

export interface OneConnectionOptions {
  probeSec: number;
  rounds: number;
  /** The warm-up probe of each contender stops after this many requests (or probeSec). */
  warmupRequests: number;
  /** Called before and after every measured probe (not the warm-ups), for callers that look closer. */
  onProbeStart?: (name: string) => void;
  onProbe?: (name: string, result: ProbeResult) => void;
}

/**
 * Each contender probed at one connection: a warm-up each, then `rounds` probes of each in an order that
 * rotates each round. `added` is every contender's p50/p99 minus those of `direct` (the simulator itself).
 */
export async function oneConnectionLatency<N extends string>(
  contenders: Record<'direct' | N, ProbeTarget>,
  order: readonly ('direct' | N)[],
  opts: OneConnectionOptions,
): Promise<{ targets: Record<'direct' | N, Summary>; added: Record<Exclude<N, 'direct'>, Added> }> {
  const samples = Object.fromEntries(order.map((n) => [n, new Samples()])) as Record<'direct' | N, Samples>;
  const probe = (name: 'direct' | N, durationMs: number, maxRequests?: number) =>
    runProbe({ ...contenders[name], stream: contenders[name].stream ?? null, durationMs, maxRequests });
  for (const name of order) await probe(name, opts.probeSec * 1000, opts.warmupRequests);
  for (let r = 0; r < opts.rounds; r++) {
    for (const name of rotate(order, r)) {
      opts.onProbeStart?.(name);
      const result = await probe(name, opts.probeSec * 1000);
      samples[name].addAll(contenders[name].stream ? result.ttftMs : result.latencyMs);
      opts.onProbe?.(name, result);
    }
  }
  const targets = Object.fromEntries(order.map((n) => [n, samples[n].summary()])) as Record<'direct' | N, Summary>;
  const added = (n: 'direct' | N): Added => ({
    p50: round(targets[n].p50 - targets.direct.p50, 3),
    p99: round(targets[n].p99 - targets.direct.p99, 3),
  });
  return { targets, added: Object.fromEntries(order.filter((n) => n !== 'direct').map((n) => [n, added(n)])) as Record<Exclude<N, 'direct'>, Added> };
}
