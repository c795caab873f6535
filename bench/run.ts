// `npm run bench`: runs the whole bench, prints the markdown tables, writes bench/results/<time>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBench } from './bench.js';
import { parseOptions, UsageError } from './options.js';
import { markdown, targetsTable, type BenchResults } from './report.js';
import { writeSection } from './results-file.js';

/** What the README's table was measured on (the run's date is in bench/RESULTS.md and the commit). */
function machineLine(r: BenchResults): string {
  const m = r.machine;
  return `Written by \`npm run bench\` from its last run: ${m.cores} cores, Node ${m.node}, ${r.options.connections} connections, ${r.options.durationSec} s × ${r.options.rounds} rounds per target, gateway \`LOG_LEVEL=${r.options.logLevel}\`.`;
}

/** The section's title line: when, and what was chosen when it was not the whole bench. */
function resultsHeading(r: BenchResults): string {
  const when = r.startedAt.slice(0, 16).replace('T', ' ');
  const chosen = [
    r.options.scenarios.length > 0 ? `scenarios ${r.options.scenarios.join(', ')}` : null,
    `phases ${r.options.phases.join(', ')}`,
    Object.keys(r.options.gatewayEnv).length > 0 ? `gateway env ${Object.keys(r.options.gatewayEnv).join(', ')}` : null,
  ].filter((x) => x !== null);
  return `## Latest run of \`npm run bench\` (${when} UTC)\n\n${chosen.join('; ')}. Written by the bench from its JSON results.`;
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2), process.env);
  const log = opts.verbose ? (line: string) => process.stderr.write(`[bench] ${line}\n`) : () => {};
  const results = await runBench(opts, log);
  mkdirSync(opts.resultsDir, { recursive: true });
  const file = join(opts.resultsDir, `${results.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  const tables = markdown(results);
  if (opts.resultsMarkdown !== null) writeSection(opts.resultsMarkdown, 'bench', `${resultsHeading(results)}\n\n${tables}`);
  if (opts.readme !== null) writeSection(opts.readme, 'bench-targets', `${machineLine(results)}\n\n${targetsTable(results)}`);
  process.stdout.write(`${tables}\n\nResults: ${file}\n`);
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
