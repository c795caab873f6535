import t from 'tap';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MapStream, type StreamMapper } from '../../../src/sse/map-stream.js';
import { SseParseStream } from '../../../src/sse/parse-stream.js';
import type { SseEvent } from '../../../src/sse/parser.js';
import { SseSerializeStream } from '../../../src/sse/serialize-stream.js';
import type { Frame } from '../../../src/sse/frames.js';
import { everySplit, fixture, providerFixtures } from './fixture-data.js';

async function collect<T>(source: Readable, ...stages: NodeJS.ReadWriteStream[]): Promise<T[]> {
  const out: T[] = [];
  const sink = new Writable({
    objectMode: true,
    write(chunk: T, _enc, done) {
      out.push(chunk);
      done();
    },
  });
  await pipeline([source, ...stages, sink]);
  return out;
}

/** A byte source that hands out exactly these chunks (Readable.from would merge nothing, but be explicit). */
function chunks(parts: Buffer[]): Readable {
  return Readable.from(parts, { objectMode: false });
}

t.test('SseParseStream gives the same events however the bytes are split', async (t) => {
  for (const { name, bytes } of providerFixtures()) {
    const whole = await collect<SseEvent>(chunks([bytes]), new SseParseStream());
    let agree = true;
    for (const parts of everySplit(bytes)) {
      const got = await collect<SseEvent>(chunks(parts.filter((p) => p.length > 0)), new SseParseStream());
      agree &&= JSON.stringify(got) === JSON.stringify(whole);
    }
    t.ok(agree, name);
    t.ok(whole.length > 0);
  }
});

t.test('an oversized event fails the pipeline', async (t) => {
  await t.rejects(
    collect(chunks([Buffer.from(`data: ${'x'.repeat(200)}\n\n`)]), new SseParseStream({ maxEventChars: 100 })),
    { code: 'SSE_EVENT_TOO_LARGE' },
  );
});

t.test('an upstream error propagates through every stage', async (t) => {
  const failing = new Readable({
    read() {
      this.push(Buffer.from('data: 1\n\n'));
      this.destroy(new Error('socket reset'));
    },
  });
  const mapper: StreamMapper<SseEvent, Frame> = { map: () => [], end: () => [{ kind: 'done' }] };
  await t.rejects(collect(failing, new SseParseStream(), new MapStream(mapper), new SseSerializeStream()), { message: 'socket reset' });
});

t.test('MapStream: many outputs per input, closing outputs at the end, mapper errors fail the stream', async (t) => {
  const doubler: StreamMapper<number, number> = { map: (n) => [n, n * 10], end: () => [-1] };
  t.same(await collect<number>(Readable.from([1, 2, 3]), new MapStream(doubler)), [1, 10, 2, 20, 3, 30, -1]);
  const thrower: StreamMapper<number, number> = {
    map: (n) => {
      if (n === 2) throw new Error('bad input');
      return [n];
    },
    end: () => [],
  };
  await t.rejects(collect(Readable.from([1, 2, 3]), new MapStream(thrower)), { message: 'bad input' });
});

t.test('SseSerializeStream frames', async (t) => {
  const frames: Frame[] = [
    { kind: 'data', json: '{"a":"é"}' },
    { kind: 'comment', text: 'ping' },
    { kind: 'comment', text: 'two\nlines' },
    { kind: 'done' },
  ];
  const bytes = await collect<Buffer>(Readable.from(frames), new SseSerializeStream());
  t.equal(Buffer.concat(bytes).toString('utf8'), 'data: {"a":"é"}\n\n: ping\n\n: two lines\n\ndata: [DONE]\n\n');
});

t.test('parse → serialize of data frames round-trips a recorded chat stream', async (t) => {
  const bytes = fixture('openai-stream-text-include-usage.sse');
  const toFrames: StreamMapper<SseEvent, Frame> = {
    map: (ev) => [ev.data === '[DONE]' ? { kind: 'done' } : { kind: 'data', json: ev.data }],
    end: () => [],
  };
  const out = await collect<Buffer>(chunks([bytes]), new SseParseStream(), new MapStream(toFrames), new SseSerializeStream());
  t.equal(Buffer.concat(out).toString('utf8'), bytes.toString('utf8'));
});

t.test('backpressure: a slow consumer receives everything, in order', async (t) => {
  const events = Array.from({ length: 2000 }, (_, i) => `event: e\ndata: {"i":${i}}\n\n`).join('');
  const received: string[] = [];
  const slow = new Writable({
    objectMode: true,
    highWaterMark: 1,
    write(ev: SseEvent, _enc, done) {
      received.push(ev.data);
      setImmediate(done);
    },
  });
  await pipeline(chunks([Buffer.from(events)]), new SseParseStream(), slow);
  t.equal(received.length, 2000);
  t.equal(received[1999], '{"i":1999}');
});
