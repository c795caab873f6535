// What tracing costs: CPU per request of this build's gateway with tracing on (100 % sampling,
// exporting over OTLP/HTTP to a live receiver) against the same build with it off, on the
// messages pass-through and on chat, in one run. The A/B method of tools/ab.ts (windows interleaved
// with the pass-through's, order rotated each round, verdict the median of each round's own ratio),
// with A = tracing off and B = tracing on.
//
//   node dist/bench/tools/tracing.js [--scenarios messages,chat] [--rounds 6] [--duration 4] [--protocol http/protobuf] [--pin] [--no-write]
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import { runAb, type AbSummary } from './ab.js';

/** A collector that takes every export at once and answers 200: only the gateway's side is measured. */
export interface BenchCollector {
  readonly url: string;
  /** Exports and their bytes received so far. */
  readonly received: { exports: number; bytes: number };
  close(): Promise<void>;
}

export async function startBenchCollector(): Promise<BenchCollector> {
  const received = { exports: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (received.bytes += c.length));
    req.on('end', () => {
      received.exports++;
      res.writeHead(200, { 'content-type': String(req.headers['content-type'] ?? 'application/x-protobuf') }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TracingCost {
  scenario: string;
  summary: AbSummary;
  /** What the collector received during the scenario's run. */
  exports: number;
  bytes: number;
}

export interface TracingCostOptions {
  scenarios: readonly string[];
  rounds: number;
  durationSec: number;
  /** Each window ends after this many answers instead of durationSec (runAb's): a test's short run. */
  windowRequests?: number;
  connections: number;
  protocol: 'http/protobuf' | 'http/json';
  pin: boolean;
  log: (line: string) => void;
}

export async function measureTracingCost(opts: TracingCostOptions): Promise<TracingCost[]> {
  const collector = await startBenchCollector();
  const out: TracingCost[] = [];
  try {
    for (const scenario of opts.scenarios) {
      const before = { ...collector.received };
      const summary = await runAb({
        baseline: null,
        aEnv: {},
        bEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: opts.protocol, OTEL_TRACES_SAMPLER: 'always_on' },
        scenario,
        rounds: opts.rounds,
        durationSec: opts.durationSec,
        windowRequests: opts.windowRequests,
        connections: opts.connections,
        pin: opts.pin ? { servers: [] } : null,
        log: (line) => opts.log(`${scenario}: ${line.replace(' A ', ' off ').replace(' B ', ' on ').replace('B/A', 'on/off')}`),
      });
      out.push({ scenario, summary, exports: collector.received.exports - before.exports, bytes: collector.received.bytes - before.bytes });
    }
  } finally {
    await collector.close();
  }
  return out;
}

/** The section of bench/RESULTS.md this tool writes. */
export function tracingSection(results: readonly TracingCost[], opts: Pick<TracingCostOptions, 'rounds' | 'durationSec' | 'connections' | 'protocol' | 'pin'>): string {
  const lines = [
    '## Tracing on against off, CPU per request (`bench/tools/tracing.ts`)',
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${opts.rounds} rounds × ${opts.durationSec} s per target, ${opts.connections} connections${opts.pin ? ', the gateways and the pass-through on a core of their own' : ''}. ` +
      `On: 100 % sampling, ${opts.protocol}, the default batch settings, a live collector in the bench process. Goal: on / off ≤ 1.05.`,
    '',
    '| scenario | on / off (median of the rounds\' ratios) | rounds | off / pass-through | on / pass-through | exports received |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const rounds = r.summary.rounds.map((x) => (x.B / x.A).toFixed(3)).join(', ');
    lines.push(`| ${r.scenario} | ${r.summary.bToA} | ${rounds} | ${r.summary.aToPassthrough} | ${r.summary.bToPassthrough} | ${r.exports} (${Math.round(r.bytes / 1024)} KiB) |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenarios: { type: 'string', default: 'messages,chat' },
      rounds: { type: 'string', default: '6' },
      duration: { type: 'string', default: '4' },
      connections: { type: 'string', default: '32' },
      protocol: { type: 'string', default: 'http/protobuf' },
      pin: { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const opts = {
    rounds: Number(values.rounds),
    durationSec: Number(values.duration),
    connections: Number(values.connections),
    protocol: values.protocol === 'http/json' ? ('http/json' as const) : ('http/protobuf' as const),
    pin: values.pin,
  };
  const results = await measureTracingCost({ ...opts, scenarios: values.scenarios.split(','), log: (line) => process.stderr.write(`[tracing] ${line}\n`) });
  const body = tracingSection(results, opts);
  if (!values['no-write']) writeSection(RESULTS_FILE, 'tracing', body);
  console.log(body);
}

if (process.argv[1]?.includes('bench/tools/tracing')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
