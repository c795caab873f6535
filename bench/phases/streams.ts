// Many streams open at once: the simulator paces its tokens so every stream stays open for the whole
// window, and the proxy's resident memory is sampled while they are held.
import { runLoad } from '../load.js';
import { MiB, round } from '../results.js';
import type { Scenario } from '../scenarios.js';
import type { Processes } from '../targets.js';
import { requestFor, targetOf } from '../targets.js';

export interface StreamsResult {
  scenario: string;
  streams: number;
  holdSec: number;
  targets: Record<'passthrough' | 'gateway', { rssPeakMiB: number; rssBeforeMiB: number; cpuCores: number; eldP99Ms: number }>;
  /** Requests the gateway had in flight at the peak: the streams it actually held. */
  gatewayHeld: number;
}

export interface StreamsPhaseOptions {
  streams: number;
  holdSec: number;
  log: (line: string) => void;
}

/** 200 tokens spread over longer than the window, so no stream ends inside it. */
const REPLY_TOKENS = 200;

export async function runStreamsPhase(p: Processes, scenarios: readonly Scenario[], opts: StreamsPhaseOptions): Promise<StreamsResult[]> {
  const results: StreamsResult[] = [];
  await p.simulator.configure(REPLY_TOKENS / (opts.holdSec * 2));
  try {
    for (const scenario of scenarios) {
      const targets = {} as StreamsResult['targets'];
      let gatewayHeld = 0;
      for (const target of ['passthrough', 'gateway'] as const) {
        const proxy = targetOf(p, target).proxy!;
        const before = await proxy.gc();
        await proxy.reset();
        await runLoad({
          url: targetOf(p, target).url,
          connections: opts.streams,
          durationSec: opts.holdSec,
          requests: [requestFor(scenario, target)],
          expectStatus: 200,
          timeoutSec: opts.holdSec * 4,
        });
        const s = await proxy.stats();
        targets[target] = { rssPeakMiB: round(s.rssPeakBytes / MiB, 1), rssBeforeMiB: round(before.rssBytes / MiB, 1), cpuCores: round(s.cpuUs / (s.wallMs * 1000), 2), eldP99Ms: round(s.eldP99Ms, 2) };
        if (target === 'gateway') gatewayHeld = s.inFlightPeak;
        // Let the cut streams unwind before the next window.
        await new Promise((r) => setTimeout(r, 500));
      }
      opts.log(`streams ${scenario.name}: ${gatewayHeld} held, gateway RSS peak ${targets.gateway.rssPeakMiB} MiB`);
      results.push({ scenario: scenario.name, streams: opts.streams, holdSec: opts.holdSec, targets, gatewayHeld });
    }
  } finally {
    await p.simulator.configure(0);
  }
  return results;
}
