// ReframeStream writes exactly what the parse → map → serialise chain writes, however the upstream
// bytes are split, and counts the frames it produced.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import t from 'tap';
import { providerStream } from '../../../bench/micro/stream-fixture.js';
import { MapStream } from '../../../src/sse/map-stream.js';
import { SseParseStream } from '../../../src/sse/parse-stream.js';
import { ReframeStream } from '../../../src/sse/reframe-stream.js';
import { SseSerializeStream } from '../../../src/sse/serialize-stream.js';
import { ChatStreamTranslator } from '../../../src/translate/chat-to-messages/stream.js';

const translator = () => new ChatStreamTranslator({ created: 1767225600, model: 'claude-sonnet-4-6', includeUsage: true });

async function collect(chunks: Buffer[], ...stages: NodeJS.ReadWriteStream[]): Promise<{ text: string; writes: number }> {
  let text = '';
  let writes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString('utf8');
      writes++;
      cb();
    },
  });
  const all: (NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream)[] = [Readable.from(chunks), ...stages, sink];
  await pipeline(all);
  return { text, writes };
}

t.test('same bytes as the three-stage chain at every split point', async (t) => {
  const { bytes } = providerStream(12);
  const expected = await collect([bytes], new SseParseStream(), new MapStream(translator()), new SseSerializeStream());
  t.match(expected.text, /data: \[DONE\]\n\n$/);
  for (let cut = 1; cut < bytes.length; cut += 7) {
    const got = await collect([bytes.subarray(0, cut), bytes.subarray(cut)], new ReframeStream(translator()));
    if (got.text !== expected.text) return t.fail(`split at ${cut} changes the output`);
  }
  t.pass('every split gives the same output');
});

t.test('one write per upstream chunk, not per frame; frames are counted', async (t) => {
  const { bytes } = providerStream(12);
  const reframe = new ReframeStream(translator());
  const got = await collect([bytes], reframe);
  t.ok(reframe.frames > 12, `${reframe.frames} frames`);
  t.ok(got.writes <= 2, `${got.writes} write(s): the chunk's frames together, and any closing frames at the end`);
});

t.test('a mapper failure fails the stream', async (t) => {
  const failing = { map: () => { throw new Error('bad event'); }, end: () => [] };
  await t.rejects(collect([Buffer.from('data: {}\n\n')], new ReframeStream(failing)), /bad event/);
});
