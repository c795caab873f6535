// The main phase: every scenario against the three targets, interleaved A/B/C over several rounds
// (the order rotates each round) so drift of the machine falls on all three alike.
import { measureWindow } from '../measure.js';
import type { Window } from '../measure.js';
import type { ScenarioResult } from '../results.js';
import { combineWindows, round, roundCpuRatios } from '../results.js';
import { median } from '../percentiles.js';
import { DEFAULT_SIMULATOR_SETTINGS, simulatorSettingsOf, type Scenario } from '../scenarios.js';
import type { Processes, TargetName } from '../targets.js';
import { TARGETS, targetOf } from '../targets.js';

export interface ScenarioPhaseOptions {
  connections: number;
  durationSec: number;
  /** Each window ends after this many answers instead of durationSec (null: after durationSec). */
  windowRequests: number | null;
  warmupSec: number;
  rounds: number;
  log: (line: string) => void;
}

export async function runScenarioPhase(p: Processes, scenarios: readonly Scenario[], opts: ScenarioPhaseOptions): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of scenarios) results.push(await runScenario(p, scenario, opts));
  } finally {
    // The phases after this one get the simulator as it started.
    await p.simulator.configure(DEFAULT_SIMULATOR_SETTINGS);
  }
  return results;
}

async function runScenario(p: Processes, scenario: Scenario, opts: ScenarioPhaseOptions): Promise<ScenarioResult> {
  await p.simulator.configure(simulatorSettingsOf(scenario));
  if (opts.warmupSec > 0) for (const target of TARGETS) await measureWindow(p, targetOf(p, target), scenario, opts.connections, opts.warmupSec);
  const windows: Record<TargetName, Window[]> = { direct: [], passthrough: [], gateway: [] };
  for (let r = 0; r < opts.rounds; r++) {
    for (const target of rotate(TARGETS, r)) {
      const w = await measureWindow(p, targetOf(p, target), scenario, opts.connections, opts.durationSec, opts.windowRequests ?? undefined);
      windows[target].push(w);
      opts.log(`${scenario.name} round ${r + 1} ${target}: ${round(w.load.rps, 0)} req/s${w.load.unexpected > 0 ? `, ${w.load.unexpected} unexpected` : ''}`);
    }
  }
  const targets = { direct: combineWindows(windows.direct), passthrough: combineWindows(windows.passthrough), gateway: combineWindows(windows.gateway) };
  const cpuRatioRounds = roundCpuRatios(windows.gateway, windows.passthrough);
  return {
    name: scenario.name,
    description: scenario.description,
    connections: opts.connections,
    targets,
    ratios: {
      gatewayToPassthrough: round(targets.gateway.rps / targets.passthrough.rps, 3),
      gatewayToDirect: round(targets.gateway.rps / targets.direct.rps, 3),
      passthroughToDirect: round(targets.passthrough.rps / targets.direct.rps, 3),
      cpuGatewayToPassthrough: round(median(cpuRatioRounds), 3),
      cpuRatioRounds,
    },
  };
}

export function rotate<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
