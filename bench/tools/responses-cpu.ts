// The Responses surface against the chat surface, CPU per request of the gateway (issue 32): the same
// conversation asked through each (the `chat` / `responses` scenarios, and `chat-stream` /
// `responses-stream`, 200 streamed tokens), in one run against one gateway. Each round measures the
// four windows one after another, each pair's order rotated round by round, so drift of a shared
// machine falls on both sides of a pair alike; the verdict is the median of each round's own
// responses / chat ratio. Goal: at most 1.1, streamed and not.
//
//   node dist/bench/tools/responses-cpu.js [--rounds 6] [--duration 4] [--connections 32] [--no-write]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { measureWindow } from '../measure.js';
import { median } from '../percentiles.js';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import { cpuPerRequest, round } from '../results.js';
import { buildScenarios, type Scenario } from '../scenarios.js';
import { startProcesses, targetOf, UPSTREAM_KEY } from '../targets.js';
import { AB_FLAGS, abRunOptions } from './ab-flags.js';

/** Each pair: the chat scenario, then the Responses one asking the same. */
export const PAIRS = [
  ['chat', 'responses'],
  ['chat-stream', 'responses-stream'],
] as const;

export const GOAL = 1.1;

export interface PairResult {
  chat: string;
  responses: string;
  /** CPU µs per request of the gateway, per round. */
  chatUs: number[];
  responsesUs: number[];
  /** Each round's responses / chat. */
  ratios: number[];
  /** The median of the rounds' ratios. */
  ratio: number;
}

export interface ResponsesCpuOptions {
  rounds: number;
  durationSec: number;
  connections: number;
  log: (line: string) => void;
}

export async function measureResponsesCpu(opts: ResponsesCpuOptions): Promise<PairResult[]> {
  const p = await startProcesses({ logLevel: 'info', gatewayEnv: {}, profileDir: null });
  try {
    const all = buildScenarios({ gatewayKey: p.gatewayKey, upstreamKey: UPSTREAM_KEY });
    const scenario = (name: string): Scenario => all.find((s) => s.name === name)!;
    const gateway = targetOf(p, 'gateway');
    const cpuOf = async (name: string, seconds: number) => cpuPerRequest(await measureWindow(p, gateway, scenario(name), opts.connections, seconds));
    for (const name of PAIRS.flat()) await cpuOf(name, Math.min(2, opts.durationSec));
    const results: PairResult[] = PAIRS.map(([chat, responses]) => ({ chat, responses, chatUs: [], responsesUs: [], ratios: [], ratio: Number.NaN }));
    for (let r = 0; r < opts.rounds; r++) {
      for (const pair of results) {
        // Rotated each round: neither side always follows the other.
        const order = r % 2 === 0 ? [pair.chat, pair.responses] : [pair.responses, pair.chat];
        const cpu: Record<string, number> = {};
        for (const name of order) cpu[name] = await cpuOf(name, opts.durationSec);
        pair.chatUs.push(round(cpu[pair.chat]!, 1));
        pair.responsesUs.push(round(cpu[pair.responses]!, 1));
        pair.ratios.push(round(cpu[pair.responses]! / cpu[pair.chat]!, 3));
        opts.log(`round ${r + 1} ${pair.responses}: ${round(cpu[pair.responses]!, 1)} µs vs ${pair.chat} ${round(cpu[pair.chat]!, 1)} µs (${pair.ratios.at(-1)})`);
      }
    }
    for (const pair of results) pair.ratio = round(median(pair.ratios), 3);
    return results;
  } finally {
    await p.close();
  }
}

export function responsesCpuSection(results: readonly PairResult[], opts: Omit<ResponsesCpuOptions, 'log'>, when: Date): string {
  return [
    '## The Responses surface against chat, CPU per request of the gateway (`bench/tools/responses-cpu.ts`)',
    '',
    `${when.toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the end. One gateway, ${opts.rounds} rounds × ${opts.durationSec} s per scenario, ${opts.connections} connections; ` +
      `each round measures both scenarios of a pair back to back (order rotated), the verdict is the median of the rounds' own ratios. Goal: Responses at most ${GOAL}× chat, streamed and not.`,
    '',
    '| pair | chat µs/req (median) | Responses µs/req (median) | Responses / chat (median of rounds) | rounds | goal |',
    '|---|---:|---:|---:|---|---|',
    ...results.map(
      (p) =>
        `| ${p.responses} / ${p.chat} | ${round(median(p.chatUs), 1)} | ${round(median(p.responsesUs), 1)} | ${p.ratio} | ${p.ratios.join(', ')} | ≤ ${GOAL}: ${p.ratio <= GOAL ? 'met' : '**missed**'} |`,
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: AB_FLAGS });
  const opts = abRunOptions(values);
  const results = await measureResponsesCpu({ ...opts, log: (line) => process.stderr.write(`[responses-cpu] ${line}\n`) });
  const body = responsesCpuSection(results, opts, new Date());
  if (!values['no-write']) writeSection(RESULTS_FILE, 'responses-cpu', body);
  console.log(body);
}

if (/bench\/tools\/responses-cpu\.[jt]s$/.test(process.argv[1] ?? '')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
