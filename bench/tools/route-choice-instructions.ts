// Route choice counted in instructions, where a CPU-time A/B cannot resolve a few microseconds on this
// machine (a round's CPU per request moves by more than that): the gateway's main-thread instructions
// per request on the messages pass-through with one route and with four (weights 1 to 4, the same
// simulator behind them), each counted under valgrind like bench/tools/instructions.ts. Writes the
// `route-choice-instructions` section of bench/RESULTS.md.
//
//   node dist/bench/tools/route-choice-instructions.js [--warmup 20000] [--requests 2000] [--repeat 3] [--no-write]   (from the checkout's root)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import { UPSTREAM_KEY } from '../targets.js';
import { countInstructions } from './instructions.js';
import { routesFile } from './routes.js';

/** Four routes may add at most this much CPU per request over one (issue 31). */
const GOAL_US = 5;

export interface RouteChoiceCount {
  /** The median of the counts of each. */
  oneRoute: number;
  fourRoutes: number;
  /** Every count, in the order taken (one route, four routes, one route, ...). */
  oneRoutes?: number[];
  fourRoutesEach?: number[];
  warmup: number;
  requests: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `repeat` counts of each, interleaved (1, 4, 1, 4, ...) so a drift of the host falls on both. */
export async function countRouteChoice(opts: { warmup: number; requests: number; repeat: number }): Promise<RouteChoiceCount> {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-route-choice-'));
  try {
    const count = (routes: number) =>
      countInstructions({
        build: '.',
        scenario: 'messages',
        warmup: opts.warmup,
        requests: opts.requests,
        connections: 2,
        gatewayEnv: (upstream) => ({ GATEWAY_MODELS_FILE: routesFile(dir, `routes-${routes}`, routes, upstream), BENCH_ROUTES_KEY: UPSTREAM_KEY }),
      });
    const oneRoutes: number[] = [];
    const fourRoutesEach: number[] = [];
    for (let i = 0; i < opts.repeat; i++) {
      oneRoutes.push((await count(1)).perRequest);
      fourRoutesEach.push((await count(4)).perRequest);
    }
    return { oneRoute: median(oneRoutes), fourRoutes: median(fourRoutesEach), oneRoutes, fourRoutesEach, warmup: opts.warmup, requests: opts.requests };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The section: the two counts, their difference, and that difference against the goal. */
export function routeChoiceSection(c: RouteChoiceCount, at: Date): string {
  const added = c.fourRoutes - c.oneRoute;
  const share = (100 * added) / c.oneRoute;
  // How far repeated counts of one configuration lie apart: a difference inside it is not resolved.
  const spreadOf = (xs: number[]) => (100 * (Math.max(...xs) - Math.min(...xs))) / Math.min(...xs);
  const spread = Math.max(spreadOf(c.oneRoutes ?? [c.oneRoute]), spreadOf(c.fourRoutesEach ?? [c.fourRoutes]));
  const goalShare = 2;
  const verdict = share + spread <= goalShare ? 'met' : share - spread > goalShare ? '**missed**' : '**not resolved**';
  return [
    '## Route choice in instructions (`bench/tools/route-choice-instructions.ts`)',
    '',
    `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC. The gateway's main-thread instructions per request on the messages pass-through under valgrind ` +
      `(${c.warmup} warm-up, ${c.requests} counted requests each), one route against four (weights 1 to 4) to the same simulator. ` +
      'Instructions repeat to about 1 % where CPU time on this shared machine does not resolve a few microseconds.',
    '',
    '| routes | instructions per request (median) | each count |',
    '|---|---:|---|',
    `| 1 | ${c.oneRoute.toLocaleString('en-US')} | ${(c.oneRoutes ?? [c.oneRoute]).map((n) => n.toLocaleString('en-US')).join(', ')} |`,
    `| 4 | ${c.fourRoutes.toLocaleString('en-US')} | ${(c.fourRoutesEach ?? [c.fourRoutes]).map((n) => n.toLocaleString('en-US')).join(', ')} |`,
    `| 4 − 1 | ${added.toLocaleString('en-US')} (${share.toFixed(2)} %) | |`,
    '',
    `Goal: four routes add at most ${GOAL_US} µs of CPU per request. A request here is some 200 to 300 µs of CPU (the routes A/B above), so ${GOAL_US} µs is ` +
      `about ${goalShare} % of its instructions. The difference is ${share.toFixed(2)} %; repeated counts of one configuration lay up to ${spread.toFixed(2)} % apart: ` +
      `${verdict}${verdict === 'met' ? ' (the difference plus that spread is within the goal)' : verdict === '**missed**' ? ' (beyond the goal by more than that spread)' : ' by this run (the spread straddles the goal)'}.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      warmup: { type: 'string', default: '20000' },
      requests: { type: 'string', default: '2000' },
      repeat: { type: 'string', default: '3' },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const c = await countRouteChoice({ warmup: Number(values.warmup), requests: Number(values.requests), repeat: Number(values.repeat) });
  const body = routeChoiceSection(c, new Date());
  if (!values['no-write']) writeSection(RESULTS_FILE, 'route-choice-instructions', body);
  console.log(body);
}

if (/bench\/tools\/route-choice-instructions\.[jt]s$/.test(process.argv[1] ?? '')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
