// Bedrock's event stream back to the provider's SSE: the same bytes whatever the chunk boundaries,
// the invocation metrics gone from message_stop, exceptions as the provider's error events.
import t from 'tap';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { BedrockStreamDecoder, EventStreamError } from '../../../../src/providers/bedrock/event-stream-decoder.js';

const codec = new EventStreamCodec(
  (b) => Buffer.from(b).toString('utf8'),
  (s) => Buffer.from(s, 'utf8'),
);
const str = (value: string) => ({ type: 'string' as const, value });

function chunk(json: string, payload?: (b64: string) => string): Buffer {
  const b64 = Buffer.from(json, 'utf8').toString('base64');
  const body = payload ? payload(b64) : `{"bytes":"${b64}","p":"abcdefghij"}`;
  return Buffer.from(codec.encode({ headers: { ':event-type': str('chunk'), ':content-type': str('application/json'), ':message-type': str('event') }, body: Buffer.from(body) }));
}

function exception(name: string, payload: object): Buffer {
  return Buffer.from(
    codec.encode({ headers: { ':exception-type': str(name), ':content-type': str('application/json'), ':message-type': str('exception') }, body: Buffer.from(JSON.stringify(payload)) }),
  );
}

const EVENTS = [
  '{"type":"message_start","message":{"id":"msg_bdrk_01X","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}',
  '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Héllo 😀 \\"quoted\\""}}',
  '{"type":"content_block_stop","index":0}',
  '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}}',
];
const STOP_WITH_METRICS = '{"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":12,"outputTokenCount":3,"invocationLatency":420,"firstByteLatency":180}}';
const sse = (json: string) => `event: ${(JSON.parse(json) as { type: string }).type}\ndata: ${json}\n\n`;
const STREAM = Buffer.concat([...EVENTS.map((e) => chunk(e)), chunk(STOP_WITH_METRICS)]);
const EXPECTED = EVENTS.map(sse).join('') + 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

function decodeAll(chunks: Buffer[]): { text: string; decoder: BedrockStreamDecoder } {
  const decoder = new BedrockStreamDecoder();
  let text = '';
  for (const c of chunks) text += decoder.push(c).toString('utf8');
  decoder.end();
  return { text, decoder };
}

t.test('a whole stream in one chunk: each event as the provider frames it, metrics removed', async (t) => {
  t.equal(decodeAll([STREAM]).text, EXPECTED);
});

t.test('split in two at every byte boundary: the same SSE bytes', async (t) => {
  let same = 0;
  for (let i = 0; i <= STREAM.length; i++) if (decodeAll([STREAM.subarray(0, i), STREAM.subarray(i)]).text === EXPECTED) same++;
  t.equal(same, STREAM.length + 1, `all ${STREAM.length + 1} splits`);
});

t.test('one byte at a time, and in three pieces at every pair of boundaries of one message', async (t) => {
  const bytes = [...STREAM].map((b) => Buffer.from([b]));
  t.equal(decodeAll(bytes).text, EXPECTED);
  const first = chunk(EVENTS[0]!);
  let same = 0;
  let tried = 0;
  for (let i = 0; i <= first.length; i++) {
    for (let j = i; j <= first.length; j++) {
      tried++;
      if (decodeAll([first.subarray(0, i), first.subarray(i, j), first.subarray(j)]).text === sse(EVENTS[0]!)) same++;
    }
  }
  t.equal(same, tried, `${tried} three-way splits`);
});

t.test('a chunk the caller reuses after push does not change what is held', async (t) => {
  const decoder = new BedrockStreamDecoder();
  const piece = Buffer.from(STREAM.subarray(0, 40));
  t.equal(decoder.push(piece).toString(), '');
  piece.fill(0);
  t.equal(decoder.push(STREAM.subarray(40)).toString(), EXPECTED);
});

// [exception, payload, provider type]
const EXCEPTIONS: Array<[string, object, string]> = [
  ['throttlingException', { message: 'Too many requests, please wait before trying again.' }, 'rate_limit_error'],
  ['serviceUnavailableException', { message: 'Bedrock is unable to process your request.' }, 'overloaded_error'],
  ['modelStreamErrorException', { message: 'stream broke', originalStatusCode: 529, originalMessage: 'Overloaded' }, 'overloaded_error'],
  ['modelStreamErrorException', { message: 'stream broke' }, 'api_error'],
  ['internalServerException', { message: 'oops' }, 'api_error'],
  ['validationException', { message: 'bad' }, 'invalid_request_error'],
  ['modelTimeoutException', { message: 'slow' }, 'timeout_error'],
];

for (const [name, payload, type] of EXCEPTIONS) {
  t.test(`${name} mid-stream → the provider's error event (${type})`, async (t) => {
    const { text, decoder } = decodeAll([chunk(EVENTS[0]!), exception(name, payload)]);
    const message = (payload as { message: string }).message;
    t.equal(text, sse(EVENTS[0]!) + `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`);
    t.same(decoder.exception, { name, type, message });
  });
}

t.test('a protocol error message is an api_error; other event types are not part of the stream', async (t) => {
  const error = Buffer.from(codec.encode({ headers: { ':message-type': str('error'), ':error-code': str('InternalFailure'), ':error-message': str('broken') }, body: new Uint8Array(0) }));
  const other = Buffer.from(codec.encode({ headers: { ':message-type': str('event'), ':event-type': str('initial-response') }, body: Buffer.from('{}') }));
  t.equal(decodeAll([other, error]).text, 'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"broken"}}\n\n');
});

t.test('payloads in other shapes: bytes after the padding, an event written with line breaks', async (t) => {
  t.equal(decodeAll([chunk(EVENTS[3]!, (b64) => `{"p":"xyz","bytes":"${b64}"}`)]).text, sse(EVENTS[3]!));
  const pretty = '{\n  "type": "content_block_stop",\n  "index": 0\n}';
  t.equal(decodeAll([chunk(pretty)]).text, 'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n');
});

// Events the short way writes differently from the usual delta: its JSON moves for a type of another
// length, and an event whose SSE outgrows the message grows the output buffer; payloads in shapes the
// short way leaves to the general one. Split anywhere, each gives the SSE the general rule gives.
const LONG_TYPE = `{"type":"${'x'.repeat(300)}","index":0}`;
const ODD_SHAPES: Array<[string, Buffer, string]> = [
  ['ping, a type shorter than content_block_delta', chunk('{"type":"ping"}'), sse('{"type":"ping"}')],
  ['a type 300 characters long: the SSE outgrows the message', chunk(LONG_TYPE, (b64) => `{"bytes":"${b64}"}`), sse(LONG_TYPE)],
  ['base64 without its padding', chunk(EVENTS[1]!, (b64) => `{"bytes":"${b64.replace(/=+$/, '')}"}`), sse(EVENTS[1]!)],
  ['base64 with its slashes escaped', chunk('{"type":"ping","x":"???"}', (b64) => `{"bytes":"${b64.replaceAll('/', '\\/')}"}`), sse('{"type":"ping","x":"???"}')],
  ['the type not first', chunk('{"index":0,"type":"content_block_stop"}'), 'event: content_block_stop\ndata: {"index":0,"type":"content_block_stop"}\n\n'],
  ['a one-character type', chunk('{"type":"x"}'), sse('{"type":"x"}')],
];

t.test('events of other types and payloads of other shapes: what the general rule gives, split at every byte', async (t) => {
  t.ok(Buffer.from('{"type":"ping","x":"???"}').toString('base64').includes('/'), 'the escaped case has a slash to escape');
  for (const [name, message, expected] of ODD_SHAPES) {
    t.equal(decodeAll([message]).text, expected, `${name}: alone in its push`);
    const stream = Buffer.concat([chunk(EVENTS[2]!), message, chunk(EVENTS[3]!)]);
    const want = sse(EVENTS[2]!) + expected + sse(EVENTS[3]!);
    let same = 0;
    for (let i = 0; i <= stream.length; i++) if (decodeAll([stream.subarray(0, i), stream.subarray(i)]).text === want) same++;
    t.equal(same, stream.length + 1, `${name}: all ${stream.length + 1} splits`);
  }
});

t.test('every byte of a chunk message changed in turn: each one refused, none decoded', async (t) => {
  const message = chunk(EVENTS[2]!);
  let refused = 0;
  for (let i = 0; i < message.length; i++) {
    const bad = Buffer.from(message);
    bad[i]! ^= 0x10;
    try {
      decodeAll([bad]);
    } catch (err) {
      if (err instanceof EventStreamError) refused++;
    }
  }
  t.equal(refused, message.length, `all ${message.length} bytes`);
});

t.test('a corrupt message, or a stream that ends inside one, is an EventStreamError', async (t) => {
  const bad = Buffer.from(chunk(EVENTS[1]!));
  bad[bad.length - 1]! ^= 0xff;
  t.throws(() => new BedrockStreamDecoder().push(bad), EventStreamError);
  const cut = new BedrockStreamDecoder();
  t.equal(cut.push(STREAM.subarray(0, 30)).length, 0);
  t.throws(() => cut.end(), { name: 'EventStreamError', message: /ended inside a message/ });
  t.throws(() => new BedrockStreamDecoder().push(Buffer.from([0, 0, 0, 3, 1, 2, 3, 4])), EventStreamError, 'an impossible length');
  t.throws(() => decodeAll([chunk('not json')]), EventStreamError);
});
