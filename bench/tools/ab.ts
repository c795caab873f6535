// A/B of two builds of the gateway: CPU per request of another build's gateway (A, e.g. main before a
// change) and of this build's (B), in the same run, windows interleaved with the pass-through's and the
// order rotated each round, so that drift of a shared machine falls on all three. On these machines CPU
// per request moves by ±15% between windows; the ratio of two windows of the same round moves far less,
// so the verdict is the median of each round's own B/A.
//
//   git worktree add /tmp/base main && (cd /tmp/base && ln -s "$PWD/node_modules" . && npx tsc -p .)
//   node dist/bench/tools/ab.js --baseline /tmp/base/dist [--scenario chat] [--rounds 6] [--duration 4] [--pin]
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
  /**
   * Pin the three proxies to the last core and the load generator, the simulator and these servers of the
   * machine (process names: 'postgres', 'redis-server') to the others (bench/pinning.ts); null: no pinning.
   */
  pin?: { servers: readonly string[] } | null;
  log: (line: string) => void;
}

export async function runAb(opts: AbOptions): Promise<AbSummary> {
  const p = await startProcesses({ logLevel: 'info', gatewayEnv: opts.bEnv ?? {}, profileDir: null });
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-ab-'));
  let a: ChildHandle | null = null;
  let pinning: Pinning | null = null;
  try {
    // The baseline's own child launcher, so its gateway runs its own code.
    const launcher =
      opts.baseline === null
        ? await import('../processes.js')
        : ((await import(pathToFileURL(join(resolve(opts.baseline), 'bench/processes.js')).href)) as { startChild: typeof StartChild });
    a = await launcher.startChild('gateway', { env: gatewayEnv(p.simulator.url, dataDir, { logLevel: 'info', gatewayEnv: opts.aEnv ?? {}, profileDir: null }) });
    const scenarioFor = (key: string): Scenario => {
      const s = buildScenarios({ gatewayKey: key, upstreamKey: UPSTREAM_KEY }).find((x) => x.name === opts.scenario);
      if (s === undefined) throw new Error(`no scenario "${opts.scenario}"`);
      return s;
    };
    await p.simulator.configure(simulatorSettingsOf(scenarioFor(p.gatewayKey)));
    const targets: Record<AbTarget, { endpoint: Endpoint; scenario: Scenario }> = {
      passthrough: { endpoint: { url: p.passthrough.url, proxy: p.passthrough, kind: 'passthrough' }, scenario: scenarioFor(p.gatewayKey) },
      A: { endpoint: { url: a.url, proxy: a, kind: 'gateway' }, scenario: scenarioFor(a.key!) },
      B: { endpoint: { url: p.gateway.url, proxy: p.gateway, kind: 'gateway' }, scenario: scenarioFor(p.gatewayKey) },
    };
    if (opts.pin) {
      pinning = pinMeasuredAlone([p.passthrough.pid, a.pid, p.gateway.pid], [process.pid, p.simulator.pid], opts.pin.servers);
      opts.log(`pinned: the proxies on core ${pinning.measured}; load, simulator and ${opts.pin.servers.join(', ') || 'nothing else'} on ${pinning.others}`);
    }
    const window = (t: AbTarget, seconds: number) => measureWindow(p, targets[t].endpoint, targets[t].scenario, opts.connections, seconds, opts.windowRequests);
    for (const t of TARGETS) await window(t, Math.min(2, opts.durationSec));
    const rounds: AbRound[] = [];
    const rpsRounds: AbRound[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const cpu = {} as AbRound;
      const rps = {} as AbRound;
      for (let k = 0; k < TARGETS.length; k++) {
        const t = TARGETS[(k + r) % TARGETS.length]!;
        const measured = await window(t, opts.durationSec);
        cpu[t] = cpuPerRequest(measured);
        rps[t] = measured.load.rps;
      }
      rounds.push(cpu);
      rpsRounds.push(rps);
      opts.log(`round ${r + 1}: CPU µs/req pass-through ${round(cpu.passthrough, 1)} · A ${round(cpu.A, 1)} · B ${round(cpu.B, 1)} (B/A ${round(cpu.B / cpu.A, 3)})`);
    }
    return summarizeAb(rounds, rpsRounds);
  } finally {
    pinning?.release();
    await a?.stop();
    await p.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
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
    },
  });
  if (values.baseline === undefined) throw new Error('usage: node dist/bench/tools/ab.js --baseline <other build>/dist [--scenario chat] [--rounds N] [--duration S] [--connections N]');
  const s = await runAb({
    baseline: values.baseline,
    scenario: values.scenario,
    rounds: Number(values.rounds),
    durationSec: Number(values.duration),
    connections: Number(values.connections),
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
