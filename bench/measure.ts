// One measured window: reset every process's counters, drive one target with a scenario's load (plus
// its mixed-in load and, for streams, a first-token probe), then collect what each process used.
import type { ProcessStats } from './ipc.js';
import type { LoadResult } from './load.js';
import { runLoad } from './load.js';
import type { ProbeResult } from './probe.js';
import { runProbe } from './probe.js';
import type { Scenario } from './scenarios.js';
import type { Endpoint, Processes } from './targets.js';
import { requestFor } from './targets.js';

export interface Window {
  load: LoadResult;
  mixIn: LoadResult | null;
  probe: ProbeResult | null;
  /** The proxy under test (pass-through or gateway); null when the load went straight to the simulator. */
  proxy: ProcessStats | null;
  simulator: ProcessStats;
  /** Every answered request of the window, all loads together: the divisor for CPU per request. */
  answered: number;
}

/**
 * `amount`: the window ends after that many answers of the scenario's load instead of after `seconds`
 * (the mixed-in load and the probe stop with it; `seconds` still bounds them). A smoke run's windows: on a
 * loaded machine every window still gets its answers, on an idle one it does not run longer than that.
 */
export async function measureWindow(p: Processes, endpoint: Endpoint, scenario: Scenario, connections: number, seconds: number, amount?: number): Promise<Window> {
  const { url, proxy, kind: target } = endpoint;
  await Promise.all([p.simulator.reset(), proxy?.reset()]);
  const ended = amount === undefined ? undefined : new AbortController();
  const [load, mixIn, probe] = await Promise.all([
    runLoad({ url, connections, durationSec: seconds, amount, requests: [requestFor(scenario, target)], expectStatus: scenario.expectStatus, overallRate: scenario.rate }).finally(() => ended?.abort()),
    scenario.mixIn === undefined
      ? null
      : runLoad({ url, connections: scenario.mixIn.connections, durationSec: seconds, requests: [requestFor(scenario, target, true)], expectStatus: scenario.expectStatus, overallRate: scenario.mixIn.rate, timeoutSec: 30, stop: ended?.signal }),
    scenario.stream === null
      ? null
      : runProbe({ url, request: requestFor(scenario, target), expectStatus: scenario.expectStatus, stream: target === 'gateway' ? scenario.stream : 'messages', durationMs: seconds * 1000, stop: ended?.signal }),
  ]);
  const [simulator, proxyStats] = await Promise.all([p.simulator.stats(), proxy?.stats() ?? null]);
  const answered = load.ok + load.unexpected + (mixIn ? mixIn.ok + mixIn.unexpected : 0) + (probe ? probe.latencyMs.size : 0);
  return { load, mixIn, probe, proxy: proxyStats, simulator, answered };
}
