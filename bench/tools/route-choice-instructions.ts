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
import { routeChoiceSection, type RouteChoiceCount } from './route-choice-section.js';
import { routesFile } from './routes.js';


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
