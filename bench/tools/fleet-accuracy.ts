// How exactly a fleet holds a key's requests-per-minute limit: three `serve` processes on one PostgreSQL
// database and one Redis (test/helpers/fleet.ts), clients sending as fast as they can round-robin over
// them, both surfaces, against one key of rpm R. A token bucket lets through at most R + R x seconds / 60
// (full at the start, refilled continuously); the fleet's promise is that plus one per instance. Reports
// the accepted count against both, with each instance's fallback decisions (none while Redis answers).
// Writes its section of bench/RESULTS.md. Needs PostgreSQL and Redis as the tests do (test/README.md).
//
//   node dist/bench/tools/fleet-accuracy.js [--seconds 60] [--rpm 600] [--instances 3] [--clients 4] [--results-file F] [--no-write]
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { createFleetKey } from '../../test/helpers/fleet.js';
import { startTestFleet } from '../../test/helpers/test-fleet.js';
import { describeHost, hostRun, type HostRun } from '../host-run.js';
import { round } from '../results.js';
import { RESULTS_FILE, writeSection } from '../results-file.js';

export const SECTION = 'fleet-accuracy';

export interface FleetAccuracyOptions {
  seconds: number;
  rpm: number;
  instances: number;
  /** Connections per instance, each sending one request after another. */
  clients: number;
}

export interface FleetAccuracyReport extends HostRun {
  options: FleetAccuracyOptions;
  /** What the bucket lets through over the run: rpm + rpm x seconds / 60. */
  bucketAllows: number;
  accepted: number;
  refused: number;
  /** Neither 200 nor 429 (should be 0). */
  other: number;
  sentPerSecond: number;
  /** Per instance: accepted, and decisions taken alone (Redis not answering). */
  perInstance: { accepted: number; fallbacks: number }[];
}

const MODEL = 'claude-sonnet-4-6';

/** Runs its own teardowns (last registered first), as the test runner would. */
export class Teardowns {
  private readonly fns: (() => unknown)[] = [];
  teardown(fn: () => unknown): void {
    this.fns.push(fn);
  }
  async run(): Promise<void> {
    for (let fn = this.fns.pop(); fn !== undefined; fn = this.fns.pop()) await fn();
  }
}

export async function runFleetAccuracy(opts: FleetAccuracyOptions): Promise<FleetAccuracyReport> {
  const host = hostRun();
  const teardowns = new Teardowns();
  try {
    const fleet = await startTestFleet(teardowns, { instances: opts.instances, startTimeoutMs: 180_000 });
    const { secret } = await createFleetKey(fleet, 'accuracy', { rpm: opts.rpm });
    const pools = fleet.urls.map((url) => new Pool(url, { connections: opts.clients, pipelining: 1 }));
    teardowns.teardown(() => Promise.all(pools.map((p) => p.close())));
    const perInstance = fleet.urls.map(() => ({ accepted: 0, fallbacks: 0 }));
    let refused = 0;
    let other = 0;
    let sent = 0;
    const deadline = Date.now() + opts.seconds * 1000;
    // Every client takes the next instance in turn for each request: round-robin over the fleet.
    let next = 0;
    const client = async () => {
      while (Date.now() < deadline) {
        const instance = next++ % fleet.urls.length;
        const chat = sent++ % 2 === 1;
        const res = await pools[instance]!.request({
          method: 'POST',
          path: chat ? '/gateway/openai/v1/chat/completions' : '/gateway/v1/messages',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
        });
        await res.body.dump();
        if (res.statusCode === 200) perInstance[instance]!.accepted++;
        else if (res.statusCode === 429) refused++;
        else other++;
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: opts.clients * fleet.urls.length }, client));
    const elapsedSec = (performance.now() - started) / 1000;
    for (const [i, pool] of pools.entries()) {
      const metrics = await (await pool.request({ method: 'GET', path: '/metrics' })).body.text();
      perInstance[i]!.fallbacks = Number(/^model_gateway_rate_limit_fallback_decisions_total (\d+)$/m.exec(metrics)?.[1] ?? NaN);
    }
    const accepted = perInstance.reduce((sum, p) => sum + p.accepted, 0);
    return {
      ...host(),
      options: opts,
      bucketAllows: Math.floor(opts.rpm + (opts.rpm * elapsedSec) / 60),
      accepted,
      refused,
      other,
      sentPerSecond: round(sent / elapsedSec, 0),
      perInstance,
    };
  } finally {
    await teardowns.run();
  }
}

/** The markdown of the tool's section of bench/RESULTS.md. */
export function formatFleetAccuracy(r: FleetAccuracyReport): string {
  const { seconds, rpm, instances, clients } = r.options;
  const promise = r.bucketAllows + instances;
  const rows = r.perInstance.map((p, i) => `| ${i} | ${p.accepted} | ${p.fallbacks} |`);
  return [
    '## A key\'s rpm limit over a fleet (`tools/fleet-accuracy.ts`)',
    '',
    describeHost(r),
    `${instances} \`serve\` processes on one PostgreSQL database and one Redis, each answering from its built-in simulator;`,
    `${clients} connections per instance sending one request after another for ${seconds} s, round-robin over the instances, messages and chat alternating,`,
    `all with one key of ${rpm} rpm (${r.sentPerSecond} requests per second sent in all).`,
    '',
    '| instance | accepted | decisions taken alone (Redis not answering) |',
    '|---|---|---|',
    ...rows,
    '',
    `Accepted **${r.accepted}**; the bucket allows ${r.bucketAllows} over the run (${rpm} at the start + ${rpm}/min refill), the fleet promises at most ${promise} (one more per instance):`,
    `${r.accepted <= promise ? 'held' : 'EXCEEDED'}, ${r.accepted - r.bucketAllows >= 0 ? '+' : ''}${r.accepted - r.bucketAllows} against the bucket. Refused with 429: ${r.refused}; any other status: ${r.other}.`,
    ...(r.refused === 0 ? ['', 'The limit was never reached, so this run says nothing about it: run again with a lower `--rpm`.'] : []),
  ].join('\n');
}

if (/fleet-accuracy\.(js|ts)$/.test(process.argv[1] ?? '')) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      rpm: { type: 'string' },
      instances: { type: 'string' },
      clients: { type: 'string' },
      'results-file': { type: 'string' },
      'no-write': { type: 'boolean' },
    },
  });
  const report = await runFleetAccuracy({
    seconds: Number(values.seconds ?? 60),
    rpm: Number(values.rpm ?? 600),
    instances: Number(values.instances ?? 3),
    clients: Number(values.clients ?? 4),
  });
  const section = formatFleetAccuracy(report);
  console.log(section);
  if (values['no-write'] !== true) writeSection(values['results-file'] ?? RESULTS_FILE, SECTION, section);
}
