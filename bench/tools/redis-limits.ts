// What a rate-limited key costs with the fleet's limiter in Redis: the same build twice beside the
// pass-through, both with REDIS_URL, A's load on an unlimited key (Redis never asked), B's on a key
// limited far above the load (one Redis script per check and per settle), by the A/B method of ab.ts.
// Targets: at most 40 µs more CPU per request, at least 0.8 of the unlimited key's throughput. Writes
// its section of bench/RESULTS.md.
//
//   node dist/bench/tools/redis-limits.js [--redis redis://127.0.0.1:6379] [--rounds 6] [--duration 4] [--no-write] [--pin]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { median } from '../percentiles.js';
import { pinnedVariant } from '../pinning.js';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import { medianPerTarget, runAb, type AbSummary } from './ab.js';
import { AB_FLAGS, abRunOptions } from './ab-flags.js';

const SCENARIOS = ['chat', 'messages'] as const;
/** Far above what two cores can send, so every request is allowed and the cost measured is the check's. */
const KEY_LIMITS = { BENCH_KEY_RPM: '1000000000', BENCH_KEY_TPM: '1000000000000' };

function verdicts(s: AbSummary): { extraCpuUs: number; rpsRatio: number } {
  return {
    extraCpuUs: Math.round(median(s.rounds.map((r) => r.B - r.A)) * 10) / 10,
    rpsRatio: Math.round(median(s.rpsRounds.map((r) => r.B / r.A)) * 1000) / 1000,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
      ...AB_FLAGS,
      pin: { type: 'boolean', default: false },
    },
  });
  const opts = abRunOptions(values);
  const log = (line: string) => process.stderr.write(`[redis-limits] ${line}\n`);
  const rows: string[] = [];
  for (const scenario of SCENARIOS) {
    // A prefix of this run's own; the buckets expire by themselves after a minute.
    const shared = { REDIS_URL: values.redis, GATEWAY_REDIS_PREFIX: `mgw:bench:${randomBytes(4).toString('hex')}:` };
    const s = await runAb({
      baseline: null,
      aEnv: shared,
      bEnv: { ...shared, ...KEY_LIMITS },
      scenario,
      ...opts,
      pin: values.pin ? { servers: ['redis-server'] } : null,
      log: (l) => log(`${scenario}: ${l}`),
    });
    const v = verdicts(s);
    const cpu = medianPerTarget(s.rounds);
    rows.push(
      `| ${scenario} | ${cpu.A.toFixed(1)} | ${cpu.B.toFixed(1)} | ${v.extraCpuUs} (≤ 40: ${v.extraCpuUs <= 40 ? 'met' : '**missed**'}) | ${v.rpsRatio} (≥ 0.8: ${v.rpsRatio >= 0.8 ? 'met' : '**missed**'}) |`,
    );
    console.log(`${scenario}: a limited key costs ${v.extraCpuUs} µs more CPU per request; throughput ${v.rpsRatio} of an unlimited key's`);
  }
  const variant = pinnedVariant('redis-limits', 'bench/tools/redis-limits.ts', values.pin, 'redis-server', 'Redis');
  const body = [
    `## A rate-limited key with Redis against an unlimited key${variant.title}`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${opts.rounds} rounds × ${opts.durationSec} s, ${opts.connections} connections, the machine's Redis on 127.0.0.1. Medians of the rounds' own differences and ratios.`,
    ...variant.note.flatMap((line) => ['', line]),
    '',
    '| scenario | unlimited key µs/req | limited key µs/req | extra CPU µs/req | throughput limited / unlimited |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  if (!values['no-write']) writeSection(RESULTS_FILE, variant.section, body);
  console.log(`\n${body}`);
}

if (process.argv[1]?.includes('bench/tools/redis-limits')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
