// Does the translation pool earn its place? The 1 MiB mix against two gateways on one database, one
// translating inline and one with GATEWAY_TRANSLATE_THREADS, interleaved over rounds. The pool wins
// when it lowers the event-loop delay without making the small requests more than 10% slower at p50
// or p99. (The small requests come at a fixed rate, so their throughput cannot show a cost; their
// latency does, as worker threads compete with the main thread for the same cores.)
import { measureWindow } from '../measure.js';
import type { Window } from '../measure.js';
import { combineWindows, round } from '../results.js';
import type { Scenario } from '../scenarios.js';
import type { Endpoint, Processes } from '../targets.js';
import { poolWins, type PoolVariant } from './pool-decision.js';
import { rotate } from './scenarios.js';

type Variant = 'inline' | 'pool';

export interface PoolResult {
  scenario: string;
  threads: number;
  variants: Record<Variant, PoolVariant>;
  winner: Variant;
}

export interface PoolPhaseOptions {
  threads: number;
  connections: number;
  durationSec: number;
  /** Each window ends after this many answers instead of durationSec (null: after durationSec). */
  windowRequests: number | null;
  warmupSec: number;
  rounds: number;
  log: (line: string) => void;
}

export async function runPoolPhase(p: Processes, scenario: Scenario, opts: PoolPhaseOptions): Promise<PoolResult> {
  // Both variants set explicitly: the default depends on the machine's cores.
  const [inline, pooled] = await Promise.all([
    p.startGateway({ GATEWAY_TRANSLATE_THREADS: '0' }),
    p.startGateway({ GATEWAY_TRANSLATE_THREADS: String(opts.threads) }),
  ]);
  try {
    const endpoints: Record<Variant, Endpoint> = {
      inline: { url: inline.url, proxy: inline, kind: 'gateway' },
      pool: { url: pooled.url, proxy: pooled, kind: 'gateway' },
    };
    const variants: Variant[] = ['inline', 'pool'];
    if (opts.warmupSec > 0) for (const v of variants) await measureWindow(p, endpoints[v], scenario, opts.connections, opts.warmupSec);
    const windows: Record<Variant, Window[]> = { inline: [], pool: [] };
    for (let r = 0; r < opts.rounds; r++) {
      for (const v of rotate(variants, r)) windows[v].push(await measureWindow(p, endpoints[v], scenario, opts.connections, opts.durationSec, opts.windowRequests ?? undefined));
    }
    const result = { inline: summarize(windows.inline), pool: summarize(windows.pool) };
    const winner = poolWins(result.inline, result.pool) ? 'pool' : 'inline';
    opts.log(`pool: event-loop delay p99 ${result.inline.eldP99Ms} ms inline, ${result.pool.eldP99Ms} ms with ${opts.threads} thread(s); ${winner} wins`);
    return { scenario: scenario.name, threads: opts.threads, variants: result, winner };
  } finally {
    await Promise.all([inline.stop(), pooled.stop()]);
  }
}

function summarize(windows: readonly Window[]): PoolVariant {
  const t = combineWindows(windows);
  return {
    smallRps: round(t.rps, 0),
    smallP50Ms: round(t.latencyMs.p50, 2),
    smallP99Ms: round(t.latencyMs.p99, 2),
    largeRps: round(t.mixIn?.rps ?? 0, 1),
    largeP99Ms: round(t.mixIn?.latencyMs.p99 ?? NaN, 1),
    eldP99Ms: t.proxy!.eldP99Ms,
    eldMaxMs: t.proxy!.eldMaxMs,
    cpuUsPerRequest: t.proxy!.cpuUsPerRequest,
    rssPeakMiB: t.proxy!.rssPeakMiB,
  };
}
