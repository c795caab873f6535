// `npm run bench`: runs the whole bench, prints the markdown tables, writes bench/results/<time>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBench } from './bench.js';
import { parseOptions, UsageError } from './options.js';
import { markdown } from './report.js';

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2), process.env);
  const log = opts.verbose ? (line: string) => process.stderr.write(`[bench] ${line}\n`) : () => {};
  const results = await runBench(opts, log);
  mkdirSync(opts.resultsDir, { recursive: true });
  const file = join(opts.resultsDir, `${results.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${markdown(results)}\n\nResults: ${file}\n`);
  for (const svg of results.flameGraphs ?? []) process.stdout.write(`Flame graph: ${svg}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(err instanceof UsageError ? `${err.message}\n` : `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
