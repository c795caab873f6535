// The chat re-framing as Node streams, per upstream event: the three object-mode Transforms the chat
// stage used first (SSE parse → map → serialise, one Buffer per frame) against the one byte Transform
// it uses now (ReframeStream: one Buffer per upstream chunk). `node dist/bench/micro/reframe-streams.js`
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MapStream } from '../../src/sse/map-stream.js';
import { SseParseStream } from '../../src/sse/parse-stream.js';
import { ReframeStream } from '../../src/sse/reframe-stream.js';
import { SseSerializeStream } from '../../src/sse/serialize-stream.js';
import { ChatStreamTranslator } from '../../src/translate/chat-to-messages/stream.js';
import { formatResults, isMain, measureAsync } from './harness.js';
import type { MicroResult } from './harness.js';
import { providerStream } from './stream-fixture.js';

const translator = () => new ChatStreamTranslator({ created: 1767225600, model: 'claude-sonnet-4-6', includeUsage: true });

function sink(): Writable {
  return new Writable({
    write(_chunk, _enc, cb) {
      cb();
    },
  });
}

export async function reframeStreamResults(opts = {}): Promise<MicroResult[]> {
  const fixture = providerStream(200);
  return [
    await measureAsync(
      {
        name: 'three object-mode Transforms, per upstream event',
        opsPerCall: fixture.events,
        fn: () => pipeline(Readable.from(fixture.chunks), new SseParseStream(), new MapStream(translator()), new SseSerializeStream(), sink()),
      },
      opts,
    ),
    await measureAsync(
      { name: 'ReframeStream (one byte Transform), per upstream event', opsPerCall: fixture.events, fn: () => pipeline(Readable.from(fixture.chunks), new ReframeStream(translator()), sink()) },
      opts,
    ),
  ];
}

if (isMain(import.meta.url)) console.log(formatResults('Chat re-framing through Node streams', await reframeStreamResults()));
