// Bedrock's event stream decoded back to the provider's SSE, per event: a 200-token reply framed as
// Bedrock frames it (each event base64 in a `chunk` message, with padding), cut into network-sized
// chunks. The target is 2 µs an event.
//
//   node dist/bench/micro/bedrock-stream.js [--times 3] [--no-write]
//
// measures it `--times` times in one process (each a whole harness measurement: warm-up, 7 runs, the
// median) and writes the `bedrock-stream` section of bench/RESULTS.md: each time's median wall and
// CPU time per event, and the median of those. On a shared machine the CPU time is the one to read
// (the wall time also counts waiting for a core).
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { BedrockStreamDecoder } from '../../src/providers/bedrock/event-stream-decoder.js';
import type { MicroCase } from './harness.js';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import type { MicroResult } from './harness.js';
import { isMain, measure } from './harness.js';
import { providerStream } from './stream-fixture.js';

const codec = new EventStreamCodec(
  (b) => Buffer.from(b).toString('utf8'),
  (s) => Buffer.from(s, 'utf8'),
);
const header = (value: string) => ({ type: 'string' as const, value });

/** The fixture's events as Bedrock's event stream, in `chunkBytes` pieces. */
function bedrockStream(tokens: number, chunkBytes = 1400): { events: number; chunks: Buffer[] } {
  const sse = providerStream(tokens).bytes.toString('utf8');
  const events = sse
    .split('\n\n')
    .filter((f) => f !== '')
    .map((f) => f.split('\n')[1]!.slice('data: '.length));
  const last = JSON.parse(events.pop()!) as Record<string, unknown>;
  events.push(JSON.stringify({ ...last, 'amazon-bedrock-invocationMetrics': { inputTokenCount: 25, outputTokenCount: tokens, invocationLatency: 900, firstByteLatency: 200 } }));
  const frames = events.map((json) => {
    const body = `{"bytes":"${Buffer.from(json).toString('base64')}","p":"abcdefghijklmnopqrstu"}`;
    return codec.encode({ headers: { ':event-type': header('chunk'), ':content-type': header('application/json'), ':message-type': header('event') }, body: Buffer.from(body) });
  });
  const bytes = Buffer.concat(frames);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) chunks.push(bytes.subarray(i, i + chunkBytes));
  return { events: events.length, chunks };
}

export function bedrockStreamCases(): MicroCase[] {
  const fixture = bedrockStream(200);
  return [
    {
      name: 'BedrockStreamDecoder, 1400-byte chunks → SSE',
      opsPerCall: fixture.events,
      fn: () => {
        const decoder = new BedrockStreamDecoder();
        let n = 0;
        for (const chunk of fixture.chunks) n += decoder.push(chunk).length;
        decoder.end();
        return n;
      },
    },
  ];
}

/** The target: at most this many microseconds per event. */
export const BEDROCK_EVENT_GOAL_US = 2;

const us = (ns: number) => (ns / 1000).toFixed(3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export function bedrockStreamSection(results: readonly MicroResult[], when: Date): string {
  const cpu = median(results.map((r) => r.cpuNsPerOp));
  const wall = median(results.map((r) => r.nsPerOp));
  return [
    '## Bedrock event stream → the provider\'s SSE, per event (`bench/micro/bedrock-stream.ts`)',
    '',
    `${when.toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores. A 200-token reply framed as Bedrock frames it, in 1400-byte chunks; ` +
      `${results.length} measurements in one process, each the median of its runs. Goal: at most ${BEDROCK_EVENT_GOAL_US} µs per event (CPU time: the machine is shared, and the wall time counts waiting for a core too).`,
    '',
    '| measurement | CPU time per event | wall time per event |',
    '|---|---:|---:|',
    ...results.map((r, i) => `| ${i + 1} | ${us(r.cpuNsPerOp)} µs | ${us(r.nsPerOp)} µs |`),
    `| median | ${us(cpu)} µs | ${us(wall)} µs |`,
    '',
    `Goal ≤ ${BEDROCK_EVENT_GOAL_US} µs per event: ${cpu <= BEDROCK_EVENT_GOAL_US * 1000 ? 'met' : '**missed**'} (CPU time median).`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { times: { type: 'string', default: '3' }, 'no-write': { type: 'boolean', default: false } } });
  const [decoder] = bedrockStreamCases();
  const results = Array.from({ length: Number(values.times) }, () => measure(decoder!));
  const body = bedrockStreamSection(results, new Date());
  if (!values['no-write']) writeSection(RESULTS_FILE, 'bedrock-stream', body);
  console.log(body);
}
