// Bench settings: command-line flags first, then BENCH_* environment variables, then defaults.
import { parseArgs } from 'node:util';
import { RESULTS_FILE } from './results-file.js';

export const PHASES = ['scenarios', 'pool', 'latency', 'streams', 'memory', 'micro'] as const;
export type Phase = (typeof PHASES)[number];

export interface BenchOptions {
  /** Seconds of load per scenario, target and round. */
  durationSec: number;
  /**
   * Each window of the scenarios and pool phases ends after this many answers instead of durationSec
   * (null: after durationSec). For a smoke run (the suite's), whose numbers are not read.
   */
  windowRequests: number | null;
  connections: number;
  rounds: number;
  warmupSec: number;
  /** Scenario names to run (empty: all). */
  scenarios: string[];
  phases: Phase[];
  /** Seconds each target is probed at one connection, per round (latency phase). */
  probeSec: number;
  /** Streams held open at once (streams phase) and for how long. */
  openStreams: number;
  holdSec: number;
  /** Translation threads of the second gateway in the pool phase. */
  poolThreads: number;
  /** Requests sent to the gateway in the flat-memory check. */
  memoryRequests: number;
  /** The gateway's LOG_LEVEL: `info` is the production default, so its cost is counted. */
  logLevel: string;
  /** Write a V8 CPU profile of the gateway process into the results folder. */
  profile: boolean;
  /** Extra environment for the gateway (KEY=VALUE), e.g. to switch the translation pool. */
  gatewayEnv: Record<string, string>;
  resultsDir: string;
  /** The markdown file whose `bench` section this run rewrites (bench/results-file.ts); null: none. */
  resultsMarkdown: string | null;
  /** The README whose performance table (its `bench-targets` section) this run rewrites; null: none. */
  readme: string | null;
  /** Print progress lines on stderr. */
  verbose: boolean;
}

const USAGE = `usage: npm run bench -- [--duration S] [--window-requests N] [--connections N] [--rounds N] [--warmup S]
  [--scenarios a,b] [--phases ${PHASES.join(',')}] [--probe S] [--streams N] [--hold S]
  [--pool-threads N] [--memory-requests N] [--log-level L] [--profile] [--gateway-env K=V ...] [--results DIR] [--results-md FILE|none] [--readme FILE|none] [--quiet]`;

export function parseOptions(argv: string[], env: Record<string, string | undefined>): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      duration: { type: 'string' },
      'window-requests': { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      scenarios: { type: 'string' },
      phases: { type: 'string' },
      probe: { type: 'string' },
      streams: { type: 'string' },
      hold: { type: 'string' },
      'memory-requests': { type: 'string' },
      'pool-threads': { type: 'string' },
      'log-level': { type: 'string' },
      profile: { type: 'boolean' },
      'gateway-env': { type: 'string', multiple: true },
      results: { type: 'string' },
      'results-md': { type: 'string' },
      readme: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) throw new UsageError(USAGE);
  const pick = (flag: string | undefined, name: string) => flag ?? env[`BENCH_${name}`];
  return {
    durationSec: num(pick(values.duration, 'DURATION'), 5, 'duration'),
    windowRequests: optionalInt(pick(values['window-requests'], 'WINDOW_REQUESTS'), 'window-requests'),
    connections: int(pick(values.connections, 'CONNECTIONS'), 32, 'connections'),
    rounds: int(pick(values.rounds, 'ROUNDS'), 3, 'rounds'),
    warmupSec: num(pick(values.warmup, 'WARMUP'), 2, 'warmup', 0),
    scenarios: list(pick(values.scenarios, 'SCENARIOS')),
    phases: phases(pick(values.phases, 'PHASES')),
    probeSec: num(pick(values.probe, 'PROBE'), 3, 'probe'),
    openStreams: int(pick(values.streams, 'STREAMS'), 2000, 'streams'),
    holdSec: num(pick(values.hold, 'HOLD'), 8, 'hold'),
    poolThreads: int(pick(values['pool-threads'], 'POOL_THREADS'), 1, 'pool-threads'),
    memoryRequests: int(pick(values['memory-requests'], 'MEMORY_REQUESTS'), 200_000, 'memory-requests'),
    logLevel: pick(values['log-level'], 'LOG_LEVEL') ?? 'info',
    profile: values.profile ?? env.BENCH_PROFILE === '1',
    gatewayEnv: gatewaySettings(values['gateway-env'] ?? []),
    resultsDir: values.results ?? env.BENCH_RESULTS ?? 'bench/results',
    resultsMarkdown: fileOrNone(pick(values['results-md'], 'RESULTS_MD'), RESULTS_FILE),
    readme: fileOrNone(pick(values.readme, 'README'), 'README.md'),
    verbose: !(values.quiet ?? false),
  };
}

export class UsageError extends Error {}

function fileOrNone(raw: string | undefined, fallback: string): string | null {
  if (raw === 'none') return null;
  return raw === undefined || raw === '' ? fallback : raw;
}

function num(raw: string | undefined, fallback: number, name: string, min = Number.MIN_VALUE): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} must be a number ≥ ${min === 0 ? 0 : 'above 0'}, got "${raw}"`);
  return n;
}

function int(raw: string | undefined, fallback: number, name: string): number {
  const n = num(raw, fallback, name);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number, got "${raw}"`);
  return n;
}

function optionalInt(raw: string | undefined, name: string): number | null {
  return raw === undefined || raw === '' ? null : int(raw, 0, name);
}

function list(raw: string | undefined): string[] {
  return raw === undefined || raw === '' ? [] : raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function phases(raw: string | undefined): Phase[] {
  const names = list(raw);
  if (names.length === 0) return [...PHASES];
  for (const n of names) if (!(PHASES as readonly string[]).includes(n)) throw new UsageError(`unknown phase "${n}" (${PHASES.join(', ')})`);
  return names as Phase[];
}

/** `--gateway-env KEY=VALUE` values (a value may hold `=`) as an environment. */
export function gatewaySettings(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of raw) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`--gateway-env wants KEY=VALUE, got "${p}"`);
    out[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return out;
}
