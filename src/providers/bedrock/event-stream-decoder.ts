// Bedrock's InvokeModelWithResponseStream answer (application/vnd.amazon.eventstream) turned back into
// the provider's SSE bytes as it arrives, so a client sees what an anthropic route would have sent.
//
// The answer is a sequence of binary messages: a 4-byte total length, a 4-byte header length, a
// prelude CRC, headers, a payload and a message CRC. @smithy/eventstream-codec checks the CRCs and
// reads the headers of a whole message; this module finds the messages in chunks cut anywhere,
// holding an incomplete one until the rest arrives (its parts are joined once, when it is whole).
//
// Nearly every message is a `chunk` event with the same three headers: those take a short way,
// recognised and CRC-checked in chunk-frame.ts and written in sse-bytes.ts; any other message (an
// exception, headers in another order, a payload in another shape) is decoded by the codec and
// written by the general way below.
//
// A `chunk` event's payload is `{"bytes":"<base64>"}` (Bedrock may add a padding member), the base64
// of one Messages stream event; it becomes `event: <type>\ndata: <json>\n\n`, its JSON as the model
// wrote it, except that Bedrock's `amazon-bedrock-invocationMetrics` is removed from `message_stop`.
// The SSE comes out as bytes, written straight into one output buffer per push (sse-bytes.ts), so no
// usual event becomes a string (a profile of the string version spent a third of its time making and
// re-encoding strings).
// An `exception` message (`:exception-type`, payload `{"message": …}`) becomes the provider's SSE
// `error` event, its type mapped as for HTTP errors (errors.ts); a protocol `error` message
// (`:error-code`, `:error-message`) becomes an api_error. Other event types are not part of the
// Messages stream and are left out.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { messagesErrorEvent } from '../../dialects/errors/stream-frames.js';
import { editMembers } from '../../lib/json/edit-members.js';
import { chunkPayloadStart } from './chunk-frame.js';
import { errorTypeOfException, exceptionMessage } from './errors.js';
import { EventStreamError } from './event-stream-error.js';
import { SseBytes } from './sse-bytes.js';

export { EventStreamError };

/** A message longer than this is refused as corrupt rather than buffered (Bedrock's are a few KiB). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Total length, header length, prelude CRC, message CRC. */
const MIN_MESSAGE_BYTES = 16;
const METRICS_MEMBER = 'amazon-bedrock-invocationMetrics';

/** Longest header text decoded by the ASCII loop below (header names and Bedrock's values are short). */
const SHORT_TEXT = 64;

/**
 * UTF-8 bytes as text. The codec decodes every header name and value with it, three of each per
 * message: for those short ASCII strings a loop beats making a Buffer to decode them (it was a
 * fifth of the decoder's time).
 */
function utf8(bytes: Uint8Array): string {
  if (bytes.length <= SHORT_TEXT) {
    let text = '';
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (byte > 0x7f) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      text += String.fromCharCode(byte);
    }
    return text;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

const codec = new EventStreamCodec(utf8, (text: string) => Buffer.from(text, 'utf8'));
type Message = ReturnType<EventStreamCodec['decode']>;
type MessageHeaders = Message['headers'];

/** An exception the stream ended with, as Bedrock named it and as the provider's error type. */
export interface StreamException {
  /** `:exception-type` (`throttlingException`, …), or `:error-code` of a protocol error. */
  name: string;
  /** The provider's error type it was restated as. */
  type: string;
  message: string;
}

function header(headers: MessageHeaders, name: string): string | null {
  const h = headers[name];
  return h !== undefined && h.type === 'string' ? h.value : null;
}

export class BedrockStreamDecoder {
  /** Parts of a message that has not fully arrived, and their total size. */
  private parts: Buffer[] = [];
  private held = 0;
  /** Bytes the held message needs before it can be read (4 until its length is known). */
  private needed = 0;
  /** The exception the stream carried, if any: the last thing a Bedrock stream sends. */
  exception: StreamException | null = null;

  /** The SSE bytes of every message `chunk` completes (empty when it completes none). */
  push(chunk: Uint8Array): Buffer {
    let bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // A chunk event's SSE is shorter than its message (its headers alone outweigh the SSE's framing);
    // other messages grow the buffer when they need to.
    const out = new SseBytes(this.held + bytes.length);
    if (this.held > 0) {
      if (this.held + bytes.length < this.needed) {
        this.parts.push(bytes);
        this.held += bytes.length;
        return EMPTY;
      }
      // The held message is joined with only the bytes it lacks (its length known), not the whole chunk.
      const take = this.held >= 4 ? this.needed - this.held : bytes.length;
      this.parts.push(bytes.subarray(0, take));
      const joined = Buffer.concat(this.parts, this.held + take);
      this.parts = [];
      this.held = 0;
      this.decode(joined, out);
      bytes = bytes.subarray(take);
    }
    this.decode(bytes, out);
    return out.bytes();
  }

  /** Every whole message of `bytes` into `out`; the start of one that is not whole is held. */
  private decode(bytes: Buffer, out: SseBytes): void {
    let at = 0;
    while (bytes.length - at >= 4) {
      const length = bytes.readUInt32BE(at);
      if (length < MIN_MESSAGE_BYTES || length > MAX_MESSAGE_BYTES) throw new EventStreamError(`event stream message of ${length} bytes`);
      if (bytes.length - at < length) break;
      const payload = chunkPayloadStart(bytes, at, length);
      if (payload === -1) out.text(this.message(bytes.subarray(at, at + length)));
      else if (!out.chunkEvent(bytes, payload, at + length - 4)) out.text(chunkEventText(bytes.subarray(payload, at + length - 4)));
      at += length;
    }
    if (at < bytes.length) this.hold(bytes.subarray(at));
  }

  /** The stream ended: a message cut short is an error (the connection broke inside it). */
  end(): void {
    if (this.held > 0) throw new EventStreamError(`the event stream ended inside a message (${this.held} bytes of it arrived)`);
  }

  /** Keeps the start of a message; copied, since the caller may reuse the chunk's memory. */
  private hold(rest: Buffer): void {
    this.parts = [Buffer.from(rest)];
    this.held = rest.length;
    this.needed = rest.length >= 4 ? rest.readUInt32BE(0) : 4;
  }

  /** Any message but a chunk event in the usual header order: read by the codec. */
  private message(bytes: Buffer): string {
    let message: Message;
    try {
      message = codec.decode(bytes);
    } catch (err) {
      throw new EventStreamError(`event stream message not readable: ${(err as Error).message}`);
    }
    const kind = header(message.headers, ':message-type');
    if (kind === 'event') return header(message.headers, ':event-type') === 'chunk' ? chunkEventText(asBuffer(message.body)) : '';
    if (kind === 'exception') return this.fail(header(message.headers, ':exception-type') ?? 'unknownException', parseJson(message.body));
    if (kind === 'error') {
      const name = header(message.headers, ':error-code') ?? 'error';
      return this.fail(name, { message: header(message.headers, ':error-message') ?? name });
    }
    return '';
  }

  private fail(name: string, payload: unknown): string {
    const type = errorTypeOfException(name, payload) ?? 'api_error';
    const message = exceptionMessage(payload) ?? `Bedrock ended the stream with ${name}.`;
    this.exception = { name, type, message };
    return messagesErrorEvent(type, message);
  }
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(utf8(body));
  } catch {
    return null;
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const EMPTY = Buffer.alloc(0);
const BYTES_MEMBER = Buffer.from('"bytes":"', 'latin1');
const TYPE_PREFIX = Buffer.from('{"type":"', 'latin1');
const QUOTE = 0x22;

/** The base64 text of a chunk payload: found directly in the usual shape, else by parsing it. */
function base64Of(payload: Buffer): string {
  const at = payload.indexOf(BYTES_MEMBER);
  if (at !== -1) {
    const start = at + BYTES_MEMBER.length;
    const end = payload.indexOf(QUOTE, start);
    if (end !== -1) return payload.toString('latin1', start, end);
  }
  const parsed = JSON.parse(payload.toString('utf8')) as { bytes?: unknown };
  if (typeof parsed?.bytes !== 'string') throw new EventStreamError('a chunk event without bytes');
  return parsed.bytes;
}

/** One Messages stream event as the provider's SSE frame, by the general way. */
function chunkEventText(payload: Buffer): string {
  let json: Buffer;
  let type: string;
  try {
    json = Buffer.from(base64Of(payload), 'base64');
    type = eventType(json);
  } catch (err) {
    if (err instanceof EventStreamError) throw err;
    throw new EventStreamError(`a chunk event that is not a JSON event: ${(err as Error).message}`);
  }
  if (type === 'message_stop' && json.includes(METRICS_MEMBER)) json = editMembers(json, { remove: [METRICS_MEMBER] });
  let text = json.toString('utf8');
  // An SSE data line cannot hold a line break; JSON whitespace may, so such an event is rewritten compact.
  if (text.includes('\n') || text.includes('\r')) text = JSON.stringify(JSON.parse(text));
  return `event: ${type}\ndata: ${text}\n\n`;
}

/** The event's `type`: read from the front in the usual `{"type":"…"` shape, else by parsing it. */
function eventType(json: Buffer): string {
  if (json.length > TYPE_PREFIX.length && json.compare(TYPE_PREFIX, 0, TYPE_PREFIX.length, 0, TYPE_PREFIX.length) === 0) {
    const end = json.indexOf(QUOTE, TYPE_PREFIX.length);
    if (end !== -1) return json.toString('utf8', TYPE_PREFIX.length, end);
  }
  const parsed = JSON.parse(json.toString('utf8')) as { type?: unknown };
  if (typeof parsed?.type !== 'string') throw new EventStreamError('a chunk event without a type');
  return parsed.type;
}
