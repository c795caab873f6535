// Bedrock's event stream decoded back to the provider's SSE, per event: a 200-token reply framed as
// Bedrock frames it (each event base64 in a `chunk` message, with padding), cut into network-sized
// chunks. `node dist/bench/micro/bedrock-stream.js`; the target is 2 µs an event.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { BedrockStreamDecoder } from '../../src/providers/bedrock/event-stream-decoder.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';
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

if (isMain(import.meta.url)) console.log(formatResults('Bedrock event stream → SSE, per event', bedrockStreamCases().map((c) => measure(c))));
