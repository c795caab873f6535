import t from 'tap';
import fc from 'fast-check';
import { AnthropicStreamObserver, trailingUsage, usageFromMessageBody, usageOfMessage } from '../../../../src/dialects/anthropic/stream-usage.js';
import { bytewise, everySplit, fixture } from '../sse/fixture-data.js';

function observe(chunks: Buffer[]): AnthropicStreamObserver {
  const o = new AnthropicStreamObserver();
  for (const c of chunks) o.push(c);
  o.end();
  return o;
}

function summary(o: AnthropicStreamObserver): string {
  return JSON.stringify([o.usage, o.sawMessageStop, o.errorEvent, o.firstTokenSeen]);
}

const recorded: Array<[string, { input: number; output: number; cacheRead: number; cacheWrite: number }]> = [
  ['anthropic-stream-text.sse', { input: 11, output: 6, cacheRead: 0, cacheWrite: 0 }],
  ['anthropic-stream-tool-use.sse', { input: 377, output: 65, cacheRead: 0, cacheWrite: 0 }],
  ['anthropic-stream-thinking-refusal.sse', { input: 28, output: 106, cacheRead: 0, cacheWrite: 0 }],
  ['anthropic-stream-max-tokens-mid-tool.sse', { input: 450, output: 124, cacheRead: 0, cacheWrite: 0 }],
];

t.test('recorded streams: usage, message_stop and first token, however the bytes are split', async (t) => {
  for (const [name, usage] of recorded) {
    const bytes = fixture(name);
    const o = observe([bytes]);
    t.same(o.usage, usage, `${name}: usage`);
    t.equal(o.sawMessageStop, true);
    t.equal(o.errorEvent, null);
    t.equal(o.firstTokenSeen, true);
    const expected = summary(o);
    let agree = true;
    for (const parts of everySplit(bytes)) agree &&= summary(observe(parts)) === expected;
    t.ok(agree, `${name}: every split`);
    t.equal(summary(observe(bytewise(bytes))), expected, `${name}: byte by byte`);
  }
});

const ev = (name: string, payload: Record<string, unknown>) => Buffer.from(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
const start = ev('message_start', { type: 'message_start', message: { id: 'm', usage: { input_tokens: 9, cache_read_input_tokens: 40, cache_creation_input_tokens: 3, output_tokens: 1 } } });

t.test('message_start and message_delta in the common layout are read as the full parse reads them', async (t) => {
  const cacheUsage = { input_tokens: 15, cache_creation_input_tokens: 4, cache_read_input_tokens: null, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 4 }, output_tokens: 1, service_tier: 'standard' };
  const commonStart = (id: string, input: number) =>
    ev('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { ...cacheUsage, input_tokens: input } } });
  const commonDelta = ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } });
  const stop = ev('message_stop', { type: 'message_stop' });
  const o = observe([commonStart('msg_a', 15), commonDelta, stop]);
  t.same(o.usage, { input: 15, output: 12, cacheRead: 0, cacheWrite: 4, cacheWrite1h: 4 });
  t.same(o.answer, { id: 'msg_a', model: 'claude-sonnet-4-6', finishReason: 'end_turn' });
  // The same events without their event: lines take the general parser and JSON.parse: the same reading.
  const nameless = (b: Buffer) => Buffer.from(b.toString().replace(/^event: [a-z_]+\n/, ''));
  const parsed = observe([commonStart('msg_a', 15), commonDelta, stop].map(nameless));
  t.same(parsed.usage, o.usage, 'usage as the full parse reads it');
  t.same(parsed.answer, o.answer, 'facts as the full parse reads them');
  // The newer layout repeats the input counts in message_delta: read by the expression too, a null
  // cache count leaving the count message_start gave, as the parse's merge does.
  const repeating = ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { input_tokens: 16, cache_creation_input_tokens: null, cache_read_input_tokens: 7, output_tokens: 30 } });
  const newer = observe([commonStart('msg_c', 15), repeating, stop]);
  t.same(newer.usage, { input: 16, output: 30, cacheRead: 7, cacheWrite: 4, cacheWrite1h: 4 });
  t.equal(newer.answer.finishReason, 'max_tokens');
  const newerParsed = observe([commonStart('msg_c', 15), repeating, stop].map(nameless));
  t.same(newerParsed.usage, newer.usage, 'the newer layout: usage as the full parse reads it');
  t.same(newerParsed.answer, newer.answer, 'the newer layout: facts as the full parse reads them');
  // A second message_start is parsed: its null count leaves the earlier value, as the parse's merge does.
  const twice = observe([ev('message_start', { type: 'message_start', message: { usage: { input_tokens: 2, cache_read_input_tokens: 9 } } }), commonStart('msg_b', 15), commonDelta]);
  t.equal(twice.usage.cacheRead, 9, 'a null count after an earlier one keeps it');
  t.equal(twice.answer.id, 'msg_b');
});

t.test('an error event mid-stream is reported, with the usage so far', async (t) => {
  const o = observe([start, ev('ping', { type: 'ping' }), ev('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })]);
  t.same(o.errorEvent, { type: 'overloaded_error', message: 'Overloaded' });
  t.equal(o.sawMessageStop, false);
  t.equal(o.firstTokenSeen, false);
  t.same(o.usage, { input: 9, output: 1, cacheRead: 40, cacheWrite: 3 });
});

t.test('a cut stream has no message_stop; cumulative message_delta counts replace earlier ones', async (t) => {
  const o = observe([
    start,
    ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }),
    ev('message_delta', { type: 'message_delta', delta: { stop_reason: null }, usage: { output_tokens: 5 } }),
    ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 12, input_tokens: 9 } }),
  ]);
  t.equal(o.sawMessageStop, false);
  t.equal(o.firstTokenSeen, true);
  t.same(o.usage, { input: 9, output: 12, cacheRead: 40, cacheWrite: 3 });
});

t.test('events without an event: line are recognised by their payload type', async (t) => {
  const o = observe([Buffer.from('data: {"type":"message_start","message":{"usage":{"input_tokens":2,"output_tokens":1}}}\n\ndata: {"type":"message_stop"}\n\n')]);
  t.same(o.usage, { input: 2, output: 1, cacheRead: 0, cacheWrite: 0 });
  t.equal(o.sawMessageStop, true);
});

t.test('garbage never throws: malformed JSON, oversized events', async (t) => {
  const o = new AnthropicStreamObserver();
  t.doesNotThrow(() => {
    o.push(Buffer.from('event: message_start\ndata: {not json\n\nevent: error\ndata: 42\n\n'));
    o.push(Buffer.from(`data: ${'x'.repeat(17 * 1024 * 1024)}`));
    o.push(Buffer.from('\n\nevent: message_stop\ndata: {}\n\n'));
    o.end();
  });
  t.same(o.usage, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  t.equal(o.errorEvent, null);
});

t.test('usage of non-streamed bodies', async (t) => {
  const recordings = JSON.parse(fixture('anthropic-http-recording-tool-runner.json').toString('utf8')) as Array<{ response: { usage: Record<string, number> } }>;
  for (const r of recordings) {
    const u = r.response.usage;
    t.same(usageFromMessageBody(Buffer.from(JSON.stringify(r.response))), {
      input: u.input_tokens,
      output: u.output_tokens,
      cacheRead: u.cache_read_input_tokens ?? 0,
      cacheWrite: u.cache_creation_input_tokens ?? 0,
    });
  }
  t.equal(usageFromMessageBody(Buffer.from('not json')), null);
  t.equal(usageFromMessageBody(Buffer.from('{"type":"error","error":{"type":"api_error","message":"x"}}')), null);
  t.equal(usageFromMessageBody(Buffer.from('[]')), null);
});

t.test('usage read from the tail: taken when sound, else left to the full parse', async (t) => {
  const usage = '{"input_tokens":12,"output_tokens":34,"cache_read_input_tokens":5,"cache_creation_input_tokens":6}';
  const expected = { input: 12, output: 34, cacheRead: 5, cacheWrite: 6 };
  const cases: Array<[string, string, unknown]> = [
    ['usage last', `{"id":"m","content":[{"type":"text","text":"hi"}],"usage":${usage}}`, expected],
    ['trailing newline', `{"id":"m","usage":${usage}}\n`, expected],
    ['usage only', `{"usage":${usage}}`, expected],
    ['usage null', '{"id":"m","usage":null}', null],
    ['usage not an object', '{"id":"m","usage":7}', null],
    ['usage not last', `{"usage":${usage},"id":"m"}`, undefined],
    ['pretty-printed', `{\n  "id": "m",\n  "usage": ${usage}\n}`, undefined],
    ['usage of a nested object', `{"id":"m","input":{"usage":${usage}}}`, undefined],
    ['a quoted decoy in a string', `{"text":"\\",\\"usage\\":${usage.replace(/"/g, '\\"')}"}`, undefined],
    ['not an object', '[1]', undefined],
    ['cut short', `{"id":"m","usage":{"input_tokens":1`, undefined],
  ];
  for (const [name, body, want] of cases) t.same(trailingUsage(Buffer.from(body)), want, name);
});

t.test('property: the tail read agrees with the full parse whenever it answers', async (t) => {
  const usageArb = fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat(), cache_read_input_tokens: fc.nat() });
  const tricky = fc.oneof(fc.string(), fc.constantFrom(',"usage":{"input_tokens":999}}', '\\"usage\\":', '"}', '{"usage":'));
  const message = fc.record({
    id: fc.string(),
    content: fc.array(fc.oneof(fc.record({ type: fc.constant('text'), text: tricky }), fc.record({ type: fc.constant('tool_use'), input: fc.dictionary(fc.string(), fc.oneof(tricky, usageArb)) }))),
    usage: usageArb,
  });
  fc.assert(
    fc.property(message, fc.boolean(), (m, usageFirst) => {
      const ordered = usageFirst ? { usage: m.usage, id: m.id, content: m.content } : m;
      const body = Buffer.from(JSON.stringify(ordered));
      const full = usageOfMessage(JSON.parse(body.toString('utf8')));
      const tail = trailingUsage(body);
      if (tail !== undefined) t.same(tail, full);
      t.same(usageFromMessageBody(body), full);
    }),
    { numRuns: 300 },
  );
});
