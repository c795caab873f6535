// Instructions per request on the gateway's main thread, counted by valgrind's callgrind: repeatable to
// about 1% run after run on these machines, where CPU time per request moves by ±15%, so a change of a
// few per cent shows, and two builds can be compared one after the other. The gateway runs under
// valgrind with instrumentation off, is warmed up at that (slowed) speed until V8 has optimised the hot
// path, then counts only while a fixed number of requests is sent. Counts are for A/B comparison only:
// under valgrind the gateway runs ~50× slower, its timers (usage batches, log flushes) fire over fewer
// requests, and the kernel's work is not counted at all.
//
//   node dist/bench/tools/instructions.js [--build <checkout with dist/>] [--scenario chat] [--warmup 20000] [--requests 2000] [--gateway-env K=V ...] [--keep FILE [--perf-map]] [--cache-sim] [--target gateway|passthrough]
//
// `--target passthrough` counts the bare pass-through (bench/passthrough.ts, this checkout's) on the
// same scenario's provider request instead: the floor the gateway's count is read against.
//
// `--keep FILE` copies the main thread's callgrind dump to FILE, to see where the instructions go:
// `callgrind_annotate --inclusive=yes FILE` (V8's JIT code shows as addresses; the C++ of V8 and
// Node, the GC and the builtins by name).
//
// `--cache-sim` has callgrind simulate the caches and the branch predictor over the counted requests
// too (`--cache-sim=yes --branch-sim=yes`) and prints their misses per request: what a machine without
// hardware counters can show of why fewer instructions may take more time (a larger footprint of code
// and data per request: bench/README.md, "Fewer instructions, more time").
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { runLoad } from '../load.js';
import { gatewaySettings } from '../options.js';
import { startChild } from '../processes.js';
import { SERVE_NODE_FLAGS } from '../../src/apps/serve/node-flags.js';
import { buildScenarios, simulatorSettingsOf } from '../scenarios.js';
import { gatewayEnv, UPSTREAM_KEY } from '../targets.js';

const run = promisify(execFile);

export type CountedTarget = 'gateway' | 'passthrough';

export interface InstructionOptions {
  /** What runs under valgrind: the gateway (the default) or the bare pass-through. */
  target?: CountedTarget;
  /** A checkout whose dist/ holds the gateway to measure. */
  build: string;
  scenario: string;
  warmup: number;
  requests: number;
  connections: number;
  /**
   * Gateway settings over the bench's (e.g. DATABASE_URL=postgres://... to count a store), or made from
   * the URL of the simulator the count starts (a models file whose routes point at it).
   */
  gatewayEnv?: Record<string, string> | ((upstreamUrl: string) => Record<string, string>);
  /** Where to copy the main thread's callgrind dump (null: not kept). */
  keep?: string | null;
  /**
   * Node writes V8's map of its compiled JavaScript (`--perf-basic-prof`), kept beside the dump as
   * `<keep>.map`, so `tools/callgrind-jit.ts` can name the JIT code's addresses. Logging each
   * compilation adds to the count: for where the instructions go, not for comparing totals. V8's
   * own log, which the flag turns on, goes to the count's temporary folder (not the working one).
   */
  perfMap?: boolean;
  /** Callgrind simulates the first-level and last-level caches and the branch predictor too. */
  cacheSim?: boolean;
}

/**
 * What callgrind's cache and branch simulation counted per request (its events, summed by kind):
 * first-level instruction and data misses (reads and writes), last-level misses of either, and
 * mispredicted conditional and indirect branches.
 */
export interface SimulatedMisses {
  i1: number;
  d1: number;
  ll: number;
  branches: number;
}

/** `PROGRAM TOTALS` of a callgrind_annotate report, by event (Ir, and I1mr, D1mr, … when simulated). */
export function programTotals(report: string): Record<string, number> {
  const shown = /^Events shown:\s+(.+)$/m.exec(report)?.[1]?.trim().split(/\s+/) ?? ['Ir'];
  const m = /^\s*((?:[\d,]+\s+\(100\.0%\)\s+)+)PROGRAM TOTALS/m.exec(report);
  if (m === null) throw new Error('no PROGRAM TOTALS in the callgrind report');
  const counts = [...m[1]!.matchAll(/([\d,]+)\s+\(100\.0%\)/g)].map((c) => Number(c[1]!.replaceAll(',', '')));
  if (counts.length !== shown.length) throw new Error(`PROGRAM TOTALS has ${counts.length} counts for ${shown.length} events`);
  return Object.fromEntries(shown.map((event, i) => [event, counts[i]!]));
}

/** The instructions (Ir) of a callgrind_annotate report's PROGRAM TOTALS. */
export function programTotal(report: string): number {
  return instructionsOf(programTotals(report));
}

function instructionsOf(totals: Record<string, number>): number {
  const ir = totals.Ir;
  if (ir === undefined) throw new Error('the callgrind report counted no instructions (Ir)');
  return ir;
}

/** The simulated misses per request from a report's totals; null when the count did not simulate them. */
export function missesPerRequest(totals: Record<string, number>, requests: number): SimulatedMisses | null {
  if (totals.I1mr === undefined) return null;
  const sum = (...events: string[]) => Math.round(events.reduce((n, e) => n + (totals[e] ?? 0), 0) / requests);
  return { i1: sum('I1mr'), d1: sum('D1mr', 'D1mw'), ll: sum('ILmr', 'DLmr', 'DLmw'), branches: sum('Bcm', 'Bim') };
}

/** The share of counted requests that may fail (see below) before the count is refused. */
const TOLERATED_FAILURES = 0.01;

/** The pass-through's upstream pool, as the bench starts it. */
const PASSTHROUGH_CONNECTIONS = 32;

export async function countInstructions(opts: InstructionOptions): Promise<{ perRequest: number; total: number; failed: number; misses: SimulatedMisses | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-instructions-'));
  const simulator = await startChild('simulator', { args: { apiKey: UPSTREAM_KEY, replyTokens: 200 } });
  const main = join(resolve(opts.build), 'dist/src/main.js');
  const env = { ...process.env, ...gatewayEnv(simulator.url, dir, { logLevel: 'info', gatewayEnv: typeof opts.gatewayEnv === 'function' ? opts.gatewayEnv(simulator.url) : (opts.gatewayEnv ?? {}), profileDir: null }), PORT: '0' };
  try {
    const passthrough = opts.target === 'passthrough';
    const key = passthrough ? '' : (await run(process.execPath, [main, 'keys', 'create', '--customer', 'bench', '--name', 'instructions'], { env })).stdout.trim();
    const out = join(dir, 'callgrind.out');
    const program = passthrough ? [fileURLToPath(new URL('../passthrough.js', import.meta.url)), simulator.url, String(PASSTHROUGH_CONNECTIONS)] : [main, 'serve'];
    // Threads apart: the main thread's count alone (V8's compiler and GC helper threads vary run to run).
    // Without the caller's NODE_OPTIONS, through `env -u` (it execs valgrind, so the pid is valgrind's): a
    // test runner's module hooks, which its own spawn hook writes back into any environment given, would
    // be emulated too; under the suite they cost as much CPU as the gateway's whole start under valgrind.
    const gateway = spawn('env', ['-u', 'NODE_OPTIONS', 'valgrind', '--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', ...(opts.cacheSim === true ? ['--cache-sim=yes', '--branch-sim=yes'] : []), `--callgrind-out-file=${out}`, process.execPath, ...SERVE_NODE_FLAGS, ...(opts.perfMap === true ? ['--perf-basic-prof', '--no-logfile-per-isolate', `--logfile=${join(dir, 'v8.log')}`] : []), ...program], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const url = await listeningUrl(gateway);
      // The gateway's own words on an answer the count did not expect, for the error below.
      const oddAnswers: string[] = [];
      gateway.stdout!.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) if (/"status":(?!200\b)\d{3}/.test(line) && oddAnswers.length < 3) oddAnswers.push(line.slice(0, 400));
      });
      const scenario = buildScenarios({ gatewayKey: key, upstreamKey: UPSTREAM_KEY }).find((s) => s.name === opts.scenario);
      if (scenario === undefined) throw new Error(`no scenario "${opts.scenario}"`);
      await simulator.configure(simulatorSettingsOf(scenario));
      const load = (amount: number) =>
        runLoad({ url, connections: opts.connections, durationSec: 3600, amount, requests: [passthrough ? scenario.direct : scenario.gateway], expectStatus: scenario.expectStatus, timeoutSec: 120 });
      await load(opts.warmup);
      // vgdb names its pipes after USER and HOST: the controller must see the gateway's environment.
      const control = (...args: string[]) => run('callgrind_control', [...args, String(gateway.pid)], { env });
      await control('-i', 'on');
      const measured = await load(opts.requests);
      await control('-i', 'off');
      await control('-d');
      // A few 502s are tolerated: under valgrind the gateway is so slow that it now and then reuses an
      // upstream connection the simulator is closing after its 5 s keep-alive. Such a request still
      // runs its path up to the failure, so the count per request moves by a fraction of their share.
      // At least one, so a short count (the suite's 10 requests) is not refused for the one race.
      const tolerated = Math.max(1, Math.floor(opts.requests * TOLERATED_FAILURES));
      if (measured.ok < opts.requests - tolerated || measured.errors > 0) {
        throw new Error(`${measured.ok} of ${opts.requests} requests answered as expected (${measured.unexpected} other statuses or failures, ${measured.errors} of them connection errors or timeouts; statuses ${JSON.stringify(measured.otherStatuses)}; the gateway logged: ${oddAnswers.join(' | ') || 'nothing'})`);
      }
      // The dump of the main thread, callgrind.out.<n>-01, is written after callgrind_control returns.
      const dump = await mainThreadDump(dir);
      if (opts.keep != null) {
        copyFileSync(join(dir, dump), opts.keep);
        // `env` execs valgrind, which runs node in its own process: the map is named by that pid.
        if (opts.perfMap === true) copyFileSync(`/tmp/perf-${gateway.pid}.map`, `${opts.keep}.map`);
      }
      const report = await run('callgrind_annotate', [join(dir, dump)], { maxBuffer: 64 * 1024 * 1024 });
      const totals = programTotals(report.stdout);
      const total = instructionsOf(totals);
      return { total, perRequest: Math.round(total / opts.requests), failed: opts.requests - measured.ok, misses: missesPerRequest(totals, opts.requests) };
    } finally {
      gateway.kill('SIGKILL');
    }
  } finally {
    await simulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function mainThreadDump(dir: string): Promise<string> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    const dump = readdirSync(dir).find((f) => /^callgrind\.out\.\d+-01$/.test(f));
    if (dump !== undefined) {
      await new Promise((r) => setTimeout(r, 500)); // let it finish writing
      return dump;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`callgrind wrote no dump of the main thread (${readdirSync(dir).join(', ')})`);
}

/** The gateway logs where it listens; under valgrind on a busy machine that takes minutes. */
function listeningUrl(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`the gateway did not start under valgrind: ${seen.slice(-500)}`)), 600_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /"port":(\d+),[^\n]*"msg":"(?:model-gateway|pass-through) listening"/.exec(seen);
      if (m !== null) {
        clearTimeout(timer);
        resolvePromise(`http://127.0.0.1:${m[1]}`);
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}): ${seen.slice(-500)}`)));
  });
}

async function mainCli(): Promise<void> {
  const { values } = parseArgs({
    options: {
      build: { type: 'string', default: '.' },
      scenario: { type: 'string', default: 'chat' },
      warmup: { type: 'string', default: '20000' },
      requests: { type: 'string', default: '2000' },
      connections: { type: 'string', default: '4' },
      'gateway-env': { type: 'string', multiple: true },
      keep: { type: 'string' },
      'perf-map': { type: 'boolean' },
      'cache-sim': { type: 'boolean' },
      target: { type: 'string', default: 'gateway' },
    },
  });
  if (values.target !== 'gateway' && values.target !== 'passthrough') throw new Error(`--target is gateway or passthrough, not "${values.target}"`);
  const r = await countInstructions({
    build: values.build,
    scenario: values.scenario,
    warmup: Number(values.warmup),
    requests: Number(values.requests),
    connections: Number(values.connections),
    gatewayEnv: gatewaySettings(values['gateway-env'] ?? []),
    keep: values.keep ?? null,
    perfMap: values['perf-map'] ?? false,
    cacheSim: values['cache-sim'] ?? false,
    target: values.target,
  });
  const failed = r.failed > 0 ? `; ${r.failed} answered otherwise` : '';
  console.log(`${values.scenario}: ${r.perRequest} instructions per request on the ${values.target}'s main thread (${r.total} over ${values.requests}${failed})`);
  const m = r.misses;
  if (m !== null) console.log(`  simulated, per request: ${m.i1} first-level instruction misses, ${m.d1} first-level data misses, ${m.ll} last-level misses, ${m.branches} mispredicted branches`);
}

if (process.argv[1]?.includes('bench/tools/instructions')) {
  mainCli().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
