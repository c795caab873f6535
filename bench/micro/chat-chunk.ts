// Chat stream re-framing per upstream event. Part 1 picks the chunk serialiser: JSON.stringify of the
// whole chunk, fast-json-stringify with a schema, and the envelope template the translator uses
// (ChunkWriter). Part 2 is the whole cost per upstream event: SSE parse + translate + frame text,
// which must stay under 5 µs, with the text-delta fast path (translate/chat-to-messages/fast-delta.ts)
// and without it. `node dist/bench/micro/chat-chunk.js`
import fastJson from 'fast-json-stringify';
import { frameText } from '../../src/dialects/sse/frames.js';
import { SseParser } from '../../src/dialects/sse/parser.js';
import { ChunkWriter } from '../../src/dialects/translators/chat-to-anthropic/chunk-writer.js';
import { ChatStreamTranslator } from '../../src/dialects/translators/chat-to-anthropic/stream.js';
import type { ChatCompletionChunk } from '../../src/dialects/openai/wire.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';
import { providerStream } from './stream-fixture.js';

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
  const run = (fastDeltas: boolean) => () => {
    const translator = new ChatStreamTranslator({ created: CREATED, model: MODEL, includeUsage: true, fastDeltas });
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
    { name: 'parse + translate + frame, per upstream event', opsPerCall: fixture.events, fn: run(true) },
    { name: 'the same with every event through JSON.parse (fastDeltas off)', opsPerCall: fixture.events, fn: run(false) },
  ];
}

if (isMain(import.meta.url)) {
  console.log(formatResults('Chat chunk serialisation, per chunk', chunkSerializerCases().map((c) => measure(c))));
  console.log(formatResults('Chat stream re-framing', reframeCases().map((c) => measure(c))));
}
