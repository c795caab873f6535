// CPU per request of the gateway on PostgreSQL (DATABASE_URL=postgres://) against the same build on
// SQLite, on the chat and messages scenarios, measured side by side in one run by the A/B method of
// ab.ts (windows interleaved with the pass-through's, order rotated each round, verdict the median of
// each round's own ratio). The hot path must never wait on the database: keys are in memory and usage
// goes out in batches, so the two should cost the same within noise. Writes its section of
// bench/RESULTS.md.
//
//   node dist/bench/tools/stores-cpu.js [--server postgres://postgres@127.0.0.1:5432/postgres] [--rounds 6] [--duration 4] [--b-env K=V ...] [--pin]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pinnedVariant } from '../pinning.js';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import { gatewaySettings } from '../options.js';
import { medianPerTarget, runAb, type AbSummary } from './ab.js';
import { AB_FLAGS, abRunOptions } from './ab-flags.js';

const SCENARIOS = ['chat', 'messages'] as const;
const variantOf = (pinned: boolean) =>
  pinnedVariant('stores-cpu', 'bench/tools/stores-cpu.ts', pinned, 'PostgreSQL (its server and every backend)', 'the database');

/** A database of this run's own on the server, dropped afterwards. */
async function withScratchDatabase<T>(serverUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `mgw_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

function section(results: Array<{ scenario: string; summary: AbSummary }>, opts: { rounds: number; durationSec: number; connections: number; pinned: boolean }): string {
  const rows = results.map(({ scenario, summary: s }) => {
    const cpu = medianPerTarget(s.rounds);
    return `| ${scenario} | ${cpu.passthrough.toFixed(1)} | ${cpu.A.toFixed(1)} | ${cpu.B.toFixed(1)} | ${s.bToA} | ${s.rounds.map((r) => (r.B / r.A).toFixed(3)).join(' · ')} |`;
  });
  return [
    `## PostgreSQL against SQLite, CPU per request${variantOf(opts.pinned).title}`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${opts.rounds} rounds × ${opts.durationSec} s, ${opts.connections} connections. The same build twice:`,
    'A on SQLite, B on PostgreSQL on this machine; the target is B / A within 1.05.',
    ...variantOf(opts.pinned).note,
    '',
    '| scenario | pass-through µs/req | SQLite µs/req | PostgreSQL µs/req | PostgreSQL / SQLite (median of rounds) | each round |',
    '|---|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
      ...AB_FLAGS,
      'b-env': { type: 'string', multiple: true },
      pin: { type: 'boolean', default: false },
    },
  });
  const bExtra = gatewaySettings(values['b-env'] ?? []);
  const opts = { ...abRunOptions(values), pinned: values.pin };
  const log = (line: string) => process.stderr.write(`[stores-cpu] ${line}\n`);
  const results: Array<{ scenario: string; summary: AbSummary }> = [];
  for (const scenario of SCENARIOS) {
    // A fresh database per scenario, so neither run reads the other's usage rows.
    const summary = await withScratchDatabase(values.server, (databaseUrl) =>
      runAb({ baseline: null, bEnv: { ...bExtra, DATABASE_URL: databaseUrl }, scenario, ...opts, pin: opts.pinned ? { servers: ['postgres'] } : null, log: (l) => log(`${scenario}: ${l}`) }),
    );
    results.push({ scenario, summary });
    console.log(`${scenario}: PostgreSQL / SQLite CPU per request ${summary.bToA} (A = SQLite ${summary.aToPassthrough}× the pass-through, B = PostgreSQL ${summary.bToPassthrough}×)`);
  }
  const body = section(results, opts);
  if (!values['no-write']) writeSection(RESULTS_FILE, variantOf(opts.pinned).section, body);
  console.log(`\n${body}`);
}

if (process.argv[1]?.includes('bench/tools/stores-cpu')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
