// Upstream routes (issue 31), three measurements in one run, written to bench/RESULTS.md:
//
// - route choice: CPU per request of a gateway whose model has 4 routes (4 providers, weights, the
//   planner's order per request) against one whose model has 1, on the messages pass-through, by the
//   A/B method of tools/ab.ts (windows interleaved with the pass-through's, order rotated each round,
//   verdict the median of each round's own ratio). Both gateways reach the same simulator child; the
//   goal is at most 5 µs more per request.
// - capacity: two simulated accounts of 600 rpm offered 1,150 rpm for 3 minutes (goal: no client 429,
//   at least 95 % served), beside one account offered the same (today's ceiling);
// - cache: 50 sessions over 3 accounts with a prompt cache per account, the cache-read share of input
//   against the same run on one account (goal: at least 98 % of it).
// The last two run on a stepped clock (route-runs.ts): minutes of load in seconds, the same anywhere.
//
//   node dist/bench/tools/routes.js [--rounds 6] [--duration 4] [--connections 32] [--minutes 3] [--no-write]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { medianInterval, verdictAgainst } from '../median-interval.js';
import { measure, type MicroResult } from '../micro/harness.js';
import { routeOrderCases } from '../micro/route-order.js';
import { startChild } from '../processes.js';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import { UPSTREAM_KEY } from '../targets.js';
import { runAb, type AbSummary } from './ab.js';
import { ROUTED_MODEL, runCacheShare, runCapacity, type CacheResult, type CapacityResult } from './routes/route-runs.js';
import { AB_FLAGS, abRunOptions } from './ab-flags.js';

/** A models file putting `routes` providers, all on `upstream`, behind the routed model. */
export function routesFile(dir: string, name: string, routes: number, upstream: string): string {
  const providers = Array.from({ length: routes }, (_, i) => ({ id: `route-${i + 1}`, type: 'anthropic', baseUrl: upstream, apiKeyEnv: 'BENCH_ROUTES_KEY' }));
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ providers, models: [{ id: ROUTED_MODEL, routes: providers.map((p, i) => ({ provider: p.id, weight: i + 1 })) }] }));
  return file;
}

export async function measureRouteChoice(opts: { rounds: number; durationSec: number; connections: number; log: (line: string) => void }): Promise<AbSummary> {
  // An upstream of the routes' own, so both gateways' routes reach the same one.
  const upstream = await startChild('simulator', { args: { apiKey: UPSTREAM_KEY, replyTokens: 200 } });
  const dir = mkdtempSync(join(tmpdir(), 'mgw-routes-bench-'));
  try {
    const env = (routes: number) => ({ GATEWAY_MODELS_FILE: routesFile(dir, `routes-${routes}`, routes, upstream.url), BENCH_ROUTES_KEY: UPSTREAM_KEY });
    return await runAb({
      baseline: null,
      aEnv: env(1),
      bEnv: env(4),
      scenario: 'messages',
      rounds: opts.rounds,
      durationSec: opts.durationSec,
      connections: opts.connections,
      log: (line) => opts.log(line.replace(' A ', ' 1 route ').replace(' B ', ' 4 routes ').replace('B/A', '4/1')),
    });
  } finally {
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
/** Four routes may add at most this much CPU per request over one. */
const ROUTE_CHOICE_GOAL_US = 5;

export function routesSection(
  r: { choice: AbSummary; order: MicroResult[]; capacity: CapacityResult[]; cache: CacheResult[] },
  opts: { rounds: number; durationSec: number; connections: number },
): string {
  const { choice } = r;
  const perRequestUs = (x: { A: number; B: number }) => x.B - x.A;
  const addedUs = choice.rounds.map(perRequestUs);
  const medianAddedUs = [...addedUs].sort((a, b) => a - b)[Math.floor(choice.rounds.length / 2)]!;
  const interval = medianInterval(addedUs);
  const verdict = verdictAgainst(interval, ROUTE_CHOICE_GOAL_US);
  const [threeAccounts, oneAccount] = r.cache as [CacheResult, CacheResult];
  const lines = [
    '## Upstream routes: route choice, capacity over two accounts, prompt cache over three (`bench/tools/routes.ts`)',
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Route choice: ${opts.rounds} rounds × ${opts.durationSec} s per target, ${opts.connections} connections, messages pass-through; ` +
      'A = one route, B = four routes (weights 1 to 4) to the same simulator. Goal: B adds at most 5 µs CPU per request.',
    '',
    '| route choice | 4 routes / 1 route (median of the rounds\' ratios) | rounds | 1 route / pass-through | 4 routes / pass-through | 4 routes − 1 route, µs CPU per request (median round) | interval of that median |',
    '|---|---|---|---|---|---|---|',
    `| messages | ${choice.bToA} | ${choice.rounds.map((x) => (x.B / x.A).toFixed(3)).join(', ')} | ${choice.aToPassthrough} | ${choice.bToPassthrough} | ${medianAddedUs.toFixed(1)} | ${interval.low.toFixed(1)} to ${interval.high.toFixed(1)} (${pct(interval.coverage, 1)}) |`,
    '',
    `Goal ≤ ${ROUTE_CHOICE_GOAL_US} µs: ${verdict === 'not resolved' ? '**not resolved** by this run: the interval of the median round straddles the goal (a round\'s CPU per request moves by more than the goal on this machine)' : verdict === 'met' ? 'met (the whole interval is below it)' : '**missed** (the whole interval is above it)'}; the rounds\' differences: ${addedUs.map((d) => d.toFixed(1)).join(', ')} µs.`,
    '',
    'The planner\'s own work per request, in one process (bench/micro/route-order.ts; median of runs): what the A/B above cannot resolve on a loaded machine. ' +
      'CPU time, as above: the wall time also counts waiting for a core.',
    '',
    '| micro-benchmark | median CPU per request | median wall time per request |',
    '|---|---:|---:|',
    ...r.order.map((m) => `| ${m.name} | ${(m.cpuNsPerOp / 1000).toFixed(3)} µs | ${(m.nsPerOp / 1000).toFixed(3)} µs |`),
    '',
    'Capacity and cache on a stepped clock (the gateway\'s and the simulators\' time moved together, one request at its moment): minutes of offered load in seconds. ' +
      'Capacity goal: no client 429 and at least 95 % served; cache goal: the cache-read share over three accounts at least 98 % of one account\'s.',
    '',
    '| capacity | offered | served | client 429 | other errors | upstream 429s (failed over or refused) |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.capacity.map((c) => `| ${c.accounts} account(s) × ${c.rpmEach} rpm, ${c.offeredRpm} rpm for ${c.minutes} min | ${c.offered} | ${c.served} (${pct(c.served, c.offered)}) | ${c.refused} | ${c.failed} | ${c.upstream429} |`),
    '',
    '| prompt cache | sessions × requests | cache-read share of input | against one account |',
    '|---|---|---:|---:|',
    ...[threeAccounts, oneAccount].map((c) => `| ${c.accounts} account(s) | ${c.sessions} × ${c.requestsPerSession} | ${pct(c.cacheReadTokens, c.inputTokens + c.cacheReadTokens + c.cacheWriteTokens)} | ${(c.readShare / oneAccount.readShare).toFixed(3)} |`),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ...AB_FLAGS,
      minutes: { type: 'string', default: '3' },
    },
  });
  const opts = abRunOptions(values);
  const log = (line: string) => process.stderr.write(`[routes] ${line}\n`);
  const choice = await measureRouteChoice({ ...opts, log });
  const order = routeOrderCases().map((c) => measure(c));
  const minutes = Number(values.minutes);
  const capacity = [await runCapacity({ accounts: 2, rpmEach: 600, offeredRpm: 1150, minutes }), await runCapacity({ accounts: 1, rpmEach: 600, offeredRpm: 1150, minutes })];
  log(`capacity: ${capacity.map((c) => `${c.accounts} account(s) served ${c.served}/${c.offered}, refused ${c.refused}`).join('; ')}`);
  const cache = [await runCacheShare({ accounts: 3, sessions: 50, requestsPerSession: 10 }), await runCacheShare({ accounts: 1, sessions: 50, requestsPerSession: 10 })];
  const body = routesSection({ choice, order, capacity, cache }, opts);
  if (!values['no-write']) writeSection(RESULTS_FILE, 'routes', body);
  console.log(body);
}

if (/bench\/tools\/routes\.[jt]s$/.test(process.argv[1] ?? '')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
