// A/B of two builds of the gateway: CPU per request of another build's gateway (A, e.g. main before a
// change) and of this build's (B), in the same run, windows interleaved with the pass-through's and the
// order rotated each round, so that drift of a shared machine falls on all three. On these machines CPU
// per request moves by ±15% between windows; the ratio of two windows of the same round moves far less,
// so the verdict is the median of each round's own B/A.
// A gateway process can also sit in one garbage collector's state for its whole life (the old
// generation marked without end, or not: bench/README.md), which every round of a run inherits: two
// gateways of the same build read B/A 0.84 on `chat-tools`. `--fresh` starts a new A and B for every
// round (each warmed up first), so that such a state falls on single rounds, not on the verdict.
//
//   git worktree add /tmp/base main && (cd /tmp/base && ln -s "$PWD/node_modules" . && npx tsc -p .)
//   node dist/bench/tools/ab.js --baseline /tmp/base/dist [--scenario chat] [--rounds 6] [--duration 4] [--fresh] [--warmup S] [--pin]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { measureWindow } from '../measure.js';
import { median } from '../percentiles.js';
import type { ChildHandle, startChild as StartChild } from '../processes.js';
import { pinMeasuredAlone, type Pinning } from '../pinning.js';
import { cpuPerRequest, round } from '../results.js';
import { buildScenarios, simulatorSettingsOf, type Scenario } from '../scenarios.js';
import { gatewayEnv, startProcesses, UPSTREAM_KEY, type Endpoint } from '../targets.js';

export type AbTarget = 'passthrough' | 'A' | 'B';
const TARGETS: readonly AbTarget[] = ['passthrough', 'A', 'B'];

/** One round's CPU per request of each target, in µs. */
export type AbRound = Record<AbTarget, number>;

export interface AbSummary {
  rounds: AbRound[];
  /** Requests per second of each target, per round. */
  rpsRounds: AbRound[];
  /** Medians of each round's own ratio. */
  aToPassthrough: number;
  bToPassthrough: number;
  bToA: number;
}

/** Each target's median over the rounds, of CPU per request (or of any other per-round number). */
export function medianPerTarget(rounds: readonly AbRound[]): AbRound {
  return { passthrough: median(rounds.map((r) => r.passthrough)), A: median(rounds.map((r) => r.A)), B: median(rounds.map((r) => r.B)) };
}

export function summarizeAb(rounds: readonly AbRound[], rpsRounds: readonly AbRound[] = []): AbSummary {
  const ratio = (f: (r: AbRound) => number) => round(median(rounds.map(f)), 3);
  return {
    rounds: [...rounds],
    rpsRounds: [...rpsRounds],
    aToPassthrough: ratio((r) => r.A / r.passthrough),
    bToPassthrough: ratio((r) => r.B / r.passthrough),
    bToA: ratio((r) => r.B / r.A),
  };
}

export interface AbOptions {
  /** The other build's dist folder (it holds bench/processes.js and the gateway child); null: this build for A too. */
  baseline: string | null;
  /** Settings of A's and B's gateways over the bench's own (e.g. another DATABASE_URL). */
  aEnv?: Record<string, string>;
  bEnv?: Record<string, string>;
  scenario: string;
  rounds: number;
  durationSec: number;
  /** Each window ends after this many answers instead of durationSec: a test's short run, whose numbers are not read. */
  windowRequests?: number;
  connections: number;
  /** New A and B gateway processes for every round (warmed up first), instead of one pair for the run. */
  fresh?: boolean;
  /** Each new gateway's (and the pass-through's) warm-up window, in seconds; min(2, durationSec) when absent. */
  warmupSec?: number;
  /**
   * Pin the three proxies to the last core and the load generator, the simulator and these servers of the
   * machine (process names: 'postgres', 'redis-server') to the others (bench/pinning.ts); null: no pinning.
   */
  pin?: { servers: readonly string[] } | null;
  log: (line: string) => void;
}

export async function runAb(opts: AbOptions): Promise<AbSummary> {
  const p = await startProcesses({ logLevel: 'info', gatewayEnv: opts.bEnv ?? {}, profileDir: null });
  const dataDirs: string[] = [];
  let pair: GatewayPair | null = null;
  try {
    // The baseline's own child launcher, so its gateway runs its own code; this build's for a fresh B.
    const own = await import('../processes.js');
    const launcher = opts.baseline === null ? own : ((await import(pathToFileURL(join(resolve(opts.baseline), 'bench/processes.js')).href)) as { startChild: typeof StartChild });
    const gateway = async (start: typeof StartChild, env: Record<string, string> | undefined): Promise<ChildHandle> => {
      const dataDir = mkdtempSync(join(tmpdir(), 'mgw-ab-'));
      dataDirs.push(dataDir);
      return start('gateway', { env: gatewayEnv(p.simulator.url, dataDir, { logLevel: 'info', gatewayEnv: env ?? {}, profileDir: null }) });
    };
    const scenarioFor = (key: string): Scenario => {
      const s = buildScenarios({ gatewayKey: key, upstreamKey: UPSTREAM_KEY }).find((x) => x.name === opts.scenario);
      if (s === undefined) throw new Error(`no scenario "${opts.scenario}"`);
      return s;
    };
    await p.simulator.configure(simulatorSettingsOf(scenarioFor(p.gatewayKey)));
    const passthrough = { endpoint: { url: p.passthrough.url, proxy: p.passthrough, kind: 'passthrough' as const }, scenario: scenarioFor(p.gatewayKey) };
    /**
     * A (and, fresh, B: then the bench's own gateway idles) started, pinned when asked, and warmed up
     * with one window each; the pass-through too when `warmPassthrough` (it runs for the whole run).
     */
    const startPair = async (warmPassthrough: boolean): Promise<GatewayPair> => {
      const a = await gateway(launcher.startChild, opts.aEnv);
      const b = opts.fresh === true ? await gateway(own.startChild, opts.bEnv) : null;
      const bHandle = b ?? p.gateway;
      if (b !== null) opts.log(`new gateways: A pid ${a.pid}, B pid ${b.pid}`);
      const targets: Record<AbTarget, MeasuredTarget> = {
        passthrough,
        A: { endpoint: { url: a.url, proxy: a, kind: 'gateway' }, scenario: scenarioFor(a.key!) },
        B: { endpoint: { url: bHandle.url, proxy: bHandle, kind: 'gateway' }, scenario: scenarioFor(bHandle.key!) },
      };
      let pinning: Pinning | null = null;
      if (opts.pin) {
        pinning = pinMeasuredAlone([p.passthrough.pid, a.pid, bHandle.pid], [process.pid, p.simulator.pid], opts.pin.servers);
        opts.log(`pinned: the proxies on core ${pinning.measured}; load, simulator and ${opts.pin.servers.join(', ') || 'nothing else'} on ${pinning.others}`);
      }
      for (const t of warmPassthrough ? TARGETS : (['A', 'B'] as const)) await measure(targets[t], opts.warmupSec ?? Math.min(2, opts.durationSec));
      const stop = async () => {
        pinning?.release();
        await Promise.all([a.stop(), b?.stop()]);
      };
      return { targets, stop };
    };
    const measure = (target: MeasuredTarget, seconds: number) => measureWindow(p, target.endpoint, target.scenario, opts.connections, seconds, opts.windowRequests);
    const rounds: AbRound[] = [];
    const rpsRounds: AbRound[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      if (pair === null) pair = await startPair(true);
      else if (opts.fresh === true) {
        await pair.stop();
        pair = await startPair(false);
      }
      const cpu = {} as AbRound;
      const rps = {} as AbRound;
      for (let k = 0; k < TARGETS.length; k++) {
        const t = TARGETS[(k + r) % TARGETS.length]!;
        const measured = await measure(pair.targets[t], opts.durationSec);
        cpu[t] = cpuPerRequest(measured);
        rps[t] = measured.load.rps;
      }
      rounds.push(cpu);
      rpsRounds.push(rps);
      opts.log(`round ${r + 1}: CPU µs/req pass-through ${round(cpu.passthrough, 1)} · A ${round(cpu.A, 1)} · B ${round(cpu.B, 1)} (B/A ${round(cpu.B / cpu.A, 3)})`);
    }
    return summarizeAb(rounds, rpsRounds);
  } finally {
    await pair?.stop();
    await p.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

interface MeasuredTarget {
  endpoint: Endpoint;
  scenario: Scenario;
}

/** The targets of a round (or of the whole run) and how to stop the gateways started for it. */
interface GatewayPair {
  targets: Record<AbTarget, MeasuredTarget>;
  stop(): Promise<void>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      baseline: { type: 'string' },
      scenario: { type: 'string', default: 'chat' },
      rounds: { type: 'string', default: '6' },
      duration: { type: 'string', default: '4' },
      connections: { type: 'string', default: '32' },
      pin: { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
      warmup: { type: 'string' },
    },
  });
  if (values.baseline === undefined) throw new Error('usage: node dist/bench/tools/ab.js --baseline <other build>/dist [--scenario chat] [--rounds N] [--duration S] [--connections N] [--fresh] [--warmup S] [--pin]');
  const s = await runAb({
    baseline: values.baseline,
    scenario: values.scenario,
    rounds: Number(values.rounds),
    durationSec: Number(values.duration),
    connections: Number(values.connections),
    fresh: values.fresh,
    warmupSec: values.warmup === undefined ? undefined : Number(values.warmup),
    pin: values.pin ? { servers: [] } : null,
    log: (line) => process.stderr.write(`[ab] ${line}\n`),
  });
  console.log(`CPU per request, medians of each round's ratio: A / pass-through ${s.aToPassthrough}, B / pass-through ${s.bToPassthrough}, B / A ${s.bToA}`);
}

if (process.argv[1]?.includes('bench/tools/ab')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
