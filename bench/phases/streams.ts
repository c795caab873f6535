// Many streams open at once: the simulator paces its tokens so streams stay open, the load opens them
// all (thousands of connects at once take a few SYN retries to get through the listen backlog), and
// the window ends once the gateway has held them all for holdSec, or after a ramp-up limit.
import { runLoad } from '../load.js';
import { MiB, round } from '../results.js';
import type { Scenario } from '../scenarios.js';
import type { ChildHandle } from '../processes.js';
import type { Processes } from '../targets.js';
import { requestFor, targetOf } from '../targets.js';

export interface StreamsResult {
  scenario: string;
  streams: number;
  holdSec: number;
  /** Seconds until the gateway held them all (connects beyond the listen backlog are retried by TCP). */
  rampSec: number;
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
/** How long the streams may take to all open before the window ends anyway. */
const RAMP_LIMIT_SEC = 30;

export async function runStreamsPhase(p: Processes, scenarios: readonly Scenario[], opts: StreamsPhaseOptions): Promise<StreamsResult[]> {
  const results: StreamsResult[] = [];
  await p.simulator.configure({ tokensPerSecond: REPLY_TOKENS / (opts.holdSec + RAMP_LIMIT_SEC) });
  try {
    for (const scenario of scenarios) {
      const targets = {} as StreamsResult['targets'];
      let gatewayHeld = 0;
      let rampSec: number | null = null;
      for (const target of ['gateway', 'passthrough'] as const) {
        const proxy = targetOf(p, target).proxy!;
        const before = await proxy.gc();
        await proxy.reset();
        const stop = new AbortController();
        const load = runLoad({
          url: targetOf(p, target).url,
          connections: opts.streams,
          durationSec: opts.holdSec + RAMP_LIMIT_SEC,
          requests: [requestFor(scenario, target)],
          expectStatus: 200,
          timeoutSec: (opts.holdSec + RAMP_LIMIT_SEC) * 2,
          stop: stop.signal,
        });
        // The pass-through keeps no count of what it holds: it gets the gateway's ramp-up time.
        if (target === 'gateway') rampSec = await untilHeld(proxy, opts.streams);
        else await sleep((rampSec ?? 0) * 1000);
        await sleep(opts.holdSec * 1000);
        stop.abort();
        await load;
        const s = await proxy.stats();
        targets[target] = { rssPeakMiB: round(s.rssPeakBytes / MiB, 1), rssBeforeMiB: round(before.rssBytes / MiB, 1), cpuCores: round(s.cpuUs / (s.wallMs * 1000), 2), eldP99Ms: round(s.eldP99Ms, 2) };
        if (target === 'gateway') gatewayHeld = s.inFlightPeak;
        // Let the cut streams unwind before the next window.
        await sleep(1000);
      }
      opts.log(`streams ${scenario.name}: ${gatewayHeld} held, gateway RSS peak ${targets.gateway.rssPeakMiB} MiB`);
      results.push({ scenario: scenario.name, streams: opts.streams, holdSec: opts.holdSec, rampSec: round(rampSec ?? 0, 1), targets, gatewayHeld });
    }
  } finally {
    await p.simulator.configure({ tokensPerSecond: 0 });
  }
  return results;
}

/** Waits until the gateway has had `streams` requests in flight at once; returns the seconds it took. */
async function untilHeld(gateway: ChildHandle, streams: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < RAMP_LIMIT_SEC * 1000) {
    if ((await gateway.stats()).inFlightPeak >= streams) break;
    await sleep(250);
  }
  return (performance.now() - started) / 1000;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
