// The push-based Reframer (what the stream relay calls per chunk): the same text and frame count
// however the provider's bytes are split, and a parse failure thrown from push().
import t from 'tap';
import { frameText, type Frame } from '../../../../src/dialects/sse/frames.js';
import { SseEventTooLargeError, type SseEvent } from '../../../../src/dialects/sse/parser.js';
import { Reframer, type StreamMapper } from '../../../../src/dialects/sse/reframer.js';
import { ChatStreamTranslator } from '../../../../src/dialects/translators/chat-to-anthropic/stream.js';
import { bytewise, everySplit, fixture, providerFixtures } from './fixture-data.js';

const translator = () => new ChatStreamTranslator({ created: 1767225600, model: 'claude-sonnet-4-6', includeUsage: true });

function reframe(chunks: Buffer[]): { text: string; frames: number } {
  const reframer = new Reframer(translator());
  let text = '';
  for (const chunk of chunks) text += reframer.push(chunk);
  text += reframer.end();
  return { text, frames: reframer.frames };
}

t.test('recorded provider streams re-frame the same whole, split anywhere, and byte by byte', async (t) => {
  for (const { name, bytes } of providerFixtures().filter((f) => f.name.startsWith('anthropic-'))) {
    const whole = reframe([bytes]);
    t.match(whole.text, /data: \[DONE\]\n\n$/, `${name}: ends with [DONE]`);
    let same = true;
    for (const chunks of everySplit(bytes)) {
      const got = reframe(chunks);
      same &&= got.text === whole.text && got.frames === whole.frames;
    }
    t.ok(same, `${name}: every two-way split`);
    t.same(reframe(bytewise(bytes)), whole, `${name}: byte by byte`);
  }
});

t.test('push() returns only what the chunk completed', async (t) => {
  const reframer = new Reframer(translator());
  const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\n';
  t.equal(reframer.push(Buffer.from(start.slice(0, 20))), '', 'half an event: nothing');
  t.equal(reframer.frames, 0);
  t.match(reframer.push(Buffer.from(start.slice(20))), /^data: \{.*"role":"assistant"/, 'the rest: the opening frame');
  t.equal(reframer.frames, 1);
});

t.test('an event over the size limit throws from push()', async (t) => {
  const reframer = new Reframer(translator(), { maxEventChars: 64 });
  t.throws(() => reframer.push(Buffer.from(`data: ${'x'.repeat(100)}\n\n`)), SseEventTooLargeError);
});

t.test('a mapper may give many frames per event and more at the end; its errors come out of push()', async (t) => {
  const doubler: StreamMapper<SseEvent, Frame> = {
    map: (ev) => [{ kind: 'data', json: ev.data }, { kind: 'comment', text: `after ${ev.data}` }],
    end: () => [{ kind: 'done' }],
  };
  const reframer = new Reframer(doubler);
  t.equal(reframer.push(Buffer.from('data: 1\n\ndata: 2\n\n')), 'data: 1\n\n: after 1\n\ndata: 2\n\n: after 2\n\n');
  t.equal(reframer.end(), 'data: [DONE]\n\n');
  t.equal(reframer.frames, 5);
  const thrower: StreamMapper<SseEvent, Frame> = {
    map: (ev) => {
      if (ev.data === '2') throw new Error('bad input');
      return [];
    },
    end: () => [],
  };
  t.throws(() => new Reframer(thrower).push(Buffer.from('data: 1\n\ndata: 2\n\n')), { message: 'bad input' });
});

t.test('frames are written as SSE: data, comments on one line, the end marker', async (t) => {
  const frames: Frame[] = [
    { kind: 'data', json: '{"a":"é"}' },
    { kind: 'comment', text: 'ping' },
    { kind: 'comment', text: 'two\nlines' },
    { kind: 'done' },
  ];
  t.equal(frames.map(frameText).join(''), 'data: {"a":"é"}\n\n: ping\n\n: two lines\n\ndata: [DONE]\n\n');
});

t.test('parse → frames of data events round-trips a recorded chat stream, split anywhere', async (t) => {
  const bytes = fixture('openai-stream-text-include-usage.sse');
  const toFrames = (): StreamMapper<SseEvent, Frame> => ({
    map: (ev) => [ev.data === '[DONE]' ? { kind: 'done' } : { kind: 'data', json: ev.data }],
    end: () => [],
  });
  const run = (parts: Buffer[]) => {
    const reframer = new Reframer(toFrames());
    return parts.map((p) => reframer.push(p)).join('') + reframer.end();
  };
  t.equal(run([bytes]), bytes.toString('utf8'));
  let agree = true;
  for (const parts of everySplit(bytes)) agree &&= run(parts) === bytes.toString('utf8');
  t.ok(agree, 'every two-way split');
});

t.test('close() renders the frames a failed stream ends with: the error and [DONE], or nothing after message_stop', async (t) => {
  const { bytes } = providerFixtures().find((f) => f.name.startsWith('anthropic-'))!;
  const text = bytes.toString('utf8');
  const cut = text.indexOf('event: message_stop');
  t.ok(cut > 0, 'the recorded stream has a message_stop');

  const broken = translator();
  const midway = new Reframer(broken);
  midway.push(Buffer.from(text.slice(0, cut)));
  const framesBefore = midway.frames;
  const ending = midway.close(broken.fail('api_error', 'upstream_stream_interrupted', 'cut'));
  t.match(ending, /^data: \{"error":\{"message":"cut","type":"api_error","param":null,"code":"upstream_stream_interrupted"\}\}\n\ndata: \[DONE\]\n\n$/);
  t.equal(midway.frames, framesBefore + 2, 'counted like any other frames');
  t.same(broken.failure, { type: 'api_error', code: 'upstream_stream_interrupted', message: 'cut' }, 'the translator knows why it ended');

  const whole = translator();
  const complete = new Reframer(whole);
  t.match(complete.push(bytes), /data: \[DONE\]\n\n$/, 'message_stop: the answer and [DONE] went out');
  t.ok(whole.finished);
  t.equal(complete.close(whole.fail('api_error', 'upstream_stream_interrupted', 'cut')), '', 'a connection breaking afterwards adds nothing');
  t.equal(whole.failure, null);
});

t.test('with a hot event, the same text however split; mapHot gets the event and where its data lies', async (t) => {
  const hot = { name: 'content_block_delta', dataHead: '{"type":"content_block_delta","index":' };
  const hotReframe = (chunks: Buffer[]) => {
    const tr = translator();
    const seen: string[] = [];
    const reframer = new Reframer(
      {
        map: (ev) => tr.map(ev),
        mapHot: (ev, bytes, view, afterHead, dataEnd) => {
          const sameBytes = view.buffer === bytes.buffer && view.byteOffset === bytes.byteOffset && view.byteLength === bytes.length;
          seen.push(`${ev.event}|${ev.data === hot.dataHead + bytes.toString('utf8', afterHead, dataEnd) && sameBytes}`);
          return tr.map(ev);
        },
        end: () => tr.end(),
      },
      { hot },
    );
    let text = '';
    for (const chunk of chunks) text += reframer.push(chunk);
    return { text: text + reframer.end(), seen };
  };
  for (const { name, bytes } of providerFixtures().filter((f) => f.name.startsWith('anthropic-'))) {
    const plain = reframe([bytes]).text;
    const got = hotReframe([bytes]);
    t.equal(got.text, plain, `${name}: the text without a hot event`);
    t.ok(got.seen.length > 0 && got.seen.every((s) => s === 'content_block_delta|true'), `${name}: ${got.seen.length} hot deltas, each its own data`);
    let same = true;
    for (const chunks of everySplit(bytes)) same &&= hotReframe(chunks).text === plain;
    t.ok(same, `${name}: every two-way split`);
  }
});
