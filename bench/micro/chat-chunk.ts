// Chat stream re-framing per upstream event. Part 1 picks the chunk serialiser: JSON.stringify of the
// whole chunk, fast-json-stringify with a schema, and the envelope template the translator uses
// (ChunkWriter). Part 2 is the whole cost per upstream event, which must stay under 5 µs: read +
// translate + frame as the chat surface relays a stream (ReframedStream: events read in the chunks'
// bytes, deltas re-framed as bytes), through the general parser with every event parsed as JSON, and
// the relayed path on an agent's turn in the bench's small chunks. `node dist/bench/micro/chat-chunk.js`
import fastJson from 'fast-json-stringify';
import { frameText } from '../../src/dialects/sse/frames.js';
import { SseParser } from '../../src/dialects/sse/parser.js';
import { ChunkWriter } from '../../src/dialects/translators/chat-to-anthropic/chunk-writer.js';
import { ChatStreamTranslator } from '../../src/dialects/translators/chat-to-anthropic/stream.js';
import { ReframedStream } from '../../src/dialects/translators/openai-shared/translated-answer.js';
import type { ChatCompletionChunk } from '../../src/dialects/openai/wire.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';
import { agentTurnStream, providerStream, type StreamFixture } from './stream-fixture.js';

const ID = 'chatcmpl-msg_01BenchBenchBenchBenchBench';
const CREATED = 1767225600;
const MODEL = 'claude-sonnet-4-6';
const TEXTS = ['The', ' gateway', ' forwards', ' "quoted"\n', ' tokens', ' ünïcode'];

function chunkOf(text: string): ChatCompletionChunk {
  return {
    id: ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MODEL,
    choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
  };
}

const chunkSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    object: { type: 'string' },
    created: { type: 'integer' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer' },
          delta: { type: 'object', properties: { content: { type: 'string' } } },
          logprobs: { type: 'null' },
          finish_reason: { type: ['string', 'null'] },
        },
      },
    },
  },
} as const;

export function chunkSerializerCases(): MicroCase[] {
  const compiled = fastJson(chunkSchema);
  const writer = new ChunkWriter(ID, CREATED, MODEL);
  let i = 0;
  return [
    { name: 'JSON.stringify(chunk)', fn: () => JSON.stringify(chunkOf(TEXTS[i++ % TEXTS.length]!)) },
    { name: 'fast-json-stringify(chunk)', fn: () => compiled(chunkOf(TEXTS[i++ % TEXTS.length]!)) },
    { name: 'ChunkWriter.content (envelope template)', fn: () => writer.content(TEXTS[i++ % TEXTS.length]!) },
  ];
}

export function reframeCases(): MicroCase[] {
  const fixture = providerStream(200);
  const agentTurn = agentTurnStream();
  // As the chat surface relays a stream: the events read where they lie in the chunks' bytes, the
  // deltas re-framed as bytes (the target's row reads the first case).
  const relayed = (stream: StreamFixture) => () => {
    const reframed = new ReframedStream({}, new ChatStreamTranslator({ created: CREATED, model: MODEL, includeUsage: true }));
    let bytes = 0;
    for (const chunk of stream.chunks) bytes += reframed.chunk(chunk).length;
    return bytes + reframed.end().length;
  };
  // Every event decoded by the general parser and parsed as JSON: what an event costs off the fast paths.
  const general = () => {
    const translator = new ChatStreamTranslator({ created: CREATED, model: MODEL, includeUsage: true, fastDeltas: false });
    let bytes = 0;
    const parser = new SseParser((ev) => {
      for (const f of translator.map(ev)) bytes += frameText(f).length;
    });
    for (const chunk of fixture.chunks) parser.push(chunk);
    parser.end();
    for (const f of translator.end()) bytes += frameText(f).length;
    return bytes;
  };
  return [
    { name: 'read + translate + frame, per upstream event, as the chat surface relays', opsPerCall: fixture.events, fn: relayed(fixture) },
    { name: 'the same through the general parser, every event through JSON.parse', opsPerCall: fixture.events, fn: general },
    // Small chunks and tool-argument deltas: what each chunk costs on top shows against the first case.
    { name: `an agent's turn (tool-argument deltas, ${agentTurn.chunks.length} chunks of ~1.25 KiB), per event`, opsPerCall: agentTurn.events, fn: relayed(agentTurn) },
  ];
}

if (isMain(import.meta.url)) {
  console.log(formatResults('Chat chunk serialisation, per chunk', chunkSerializerCases().map((c) => measure(c))));
  console.log(formatResults('Chat stream re-framing', reframeCases().map((c) => measure(c))));
}
