// Reads usage from the provider's answers on the side of the messages surface, whose bytes go to
// the client untouched. In a stream only message_start, message_delta and error are JSON-parsed;
// the other events are recognised by their `event:` name alone, compared in place in the chunk's
// bytes (../sse/named-events.ts): nothing is decoded of an event the observer does not read.

import { RelayedOutput } from './relayed-output.js';
import { messageDeltaOfCommonText, messageStartOfCommonText } from './common-events.js';
import { HOT_DELTA } from './delta-bytes.js';
import { emptyUsage, mergeProviderUsage, usageOf, usageOfCommonText, type TokenUsage } from '../../metering/token-usage.js';
import type { SseEvent } from '../sse/parser.js';
import { NamedEventReader, type NamedEventSink } from '../sse/named-events.js';
import { BytePattern } from '../../lib/bytes/bytes-at.js';
import { isRecord } from '../../lib/is-record.js';
import type { AnswerFacts } from '../translators/translator.js';
import { emptyAnswerFacts, noteMessageDelta, noteMessageStart } from './answer-facts.js';

const CONTENT_BLOCK_DELTA = new BytePattern('content_block_delta');
const MESSAGE_STOP = new BytePattern('message_stop');
const MESSAGE_START = new BytePattern('message_start');
const MESSAGE_DELTA = new BytePattern('message_delta');
const ERROR = new BytePattern('error');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class AnthropicStreamObserver implements NamedEventSink {
  private readonly reader = new NamedEventReader(this, { hot: HOT_DELTA });
  private readonly tokenUsage = emptyUsage();
  /** The answer's id, model and stop reason, from the events parsed anyway. */
  readonly answer: AnswerFacts = emptyAnswerFacts();
  /** The deltas' characters, counted from the events parsed here (no second scan of the bytes). */
  readonly relayed = new RelayedOutput();
  private stopped = false;
  private error: { type: string; message: string } | null = null;
  private tokenSeen = false;
  /** A message_start was read (its usage merged): a second one takes the full parse. */
  private startSeen = false;
  /** Set when the bytes could not be parsed (an oversized event): the client still gets them all. */
  private blind = false;

  get usage(): TokenUsage {
    return this.tokenUsage;
  }

  get sawMessageStop(): boolean {
    return this.stopped;
  }

  get errorEvent(): { type: string; message: string } | null {
    return this.error;
  }

  get firstTokenSeen(): boolean {
    return this.tokenSeen;
  }

  /** Never throws: observing must not break the pass-through. */
  push(chunk: Buffer): void {
    if (this.blind) return;
    try {
      this.reader.push(chunk);
    } catch {
      this.blind = true;
    }
  }

  end(): void {
    this.reader.end();
  }

  /** A content_block_delta in the provider's own layout, up to its index's digits. */
  hot(bytes: Buffer, view: DataView, afterHead: number, dataEnd: number): void {
    this.tokenSeen = true;
    this.relayed.deltaAt(bytes, view, afterHead, dataEnd);
  }

  /** An event of the usual shape, read in place: by the name's length first, content_block_delta's 19 most often. */
  named(bytes: Buffer, view: DataView, nameStart: number, nameEnd: number, dataStart: number, dataEnd: number): void {
    switch (nameEnd - nameStart) {
      case 19:
        if (CONTENT_BLOCK_DELTA.is(view, nameStart, nameEnd)) {
          this.tokenSeen = true;
          this.relayed.eventAt(bytes, view, dataStart, dataEnd);
        }
        return;
      case 12:
        if (MESSAGE_STOP.is(view, nameStart, nameEnd)) this.stopped = true;
        return;
      case 13: {
        const name = MESSAGE_START.at(view, nameStart, nameEnd) ? 'message_start' : MESSAGE_DELTA.at(view, nameStart, nameEnd) ? 'message_delta' : null;
        if (name === null) return;
        const text = bytes.toString('utf8', dataStart, dataEnd);
        if (!this.readCommon(name, text)) this.onParsedEvent(name, parseJson(text));
        return;
      }
      case 5:
        if (ERROR.at(view, nameStart, nameEnd)) this.onParsedEvent('error', parseJson(bytes.toString('utf8', dataStart, dataEnd)));
        return;
    }
  }

  /** Any event once the stream left the usual shape. */
  event(ev: SseEvent): void {
    // The provider always names its events; without a name, the payload's `type` says what it is.
    let payload: unknown;
    let name = ev.event;
    if (name === undefined) {
      payload = parseJson(ev.data);
      name = isRecord(payload) && typeof payload.type === 'string' ? payload.type : '';
    }
    switch (name) {
      case 'content_block_delta':
        this.tokenSeen = true;
        this.relayed.event(ev.data);
        return;
      case 'message_stop':
        this.stopped = true;
        return;
      case 'message_start':
      case 'message_delta':
      case 'error':
        return this.onParsedEvent(name, payload ?? parseJson(ev.data));
    }
  }

  /**
   * The event in the provider's common layout (./common-events.ts), applied as onParsedEvent would apply
   * its parse; false when it is not in that layout. A message_start only while no usage came before it:
   * its null cache counts read as 0, which the parse's merge leaves at the 0 they start at.
   */
  private readCommon(name: 'message_start' | 'message_delta', text: string): boolean {
    if (name === 'message_start') {
      if (this.startSeen) return false;
      const start = messageStartOfCommonText(text);
      if (start === undefined) return false;
      this.startSeen = true;
      noteMessageStart(this.answer, start);
      Object.assign(this.tokenUsage, start.usage);
      return true;
    }
    const delta = messageDeltaOfCommonText(text);
    if (delta === undefined) return false;
    this.answer.finishReason = delta.stopReason;
    mergeProviderUsage(this.tokenUsage, delta.usage);
    return true;
  }

  private onParsedEvent(name: string, payload: unknown): void {
    if (!isRecord(payload)) return;
    if (name === 'error') {
      const err = isRecord(payload.error) ? payload.error : {};
      this.error = {
        type: typeof err.type === 'string' ? err.type : 'api_error',
        message: typeof err.message === 'string' ? err.message : '',
      };
      return;
    }
    if (name === 'message_start') {
      this.startSeen = true;
      noteMessageStart(this.answer, payload.message);
    }
    else noteMessageDelta(this.answer, payload.delta);
    const usage = name === 'message_start' ? (isRecord(payload.message) ? payload.message.usage : undefined) : payload.usage;
    if (isRecord(usage)) mergeProviderUsage(this.tokenUsage, usage);
  }
}

/** Usage of a non-streamed Messages response body, or null when the body carries none. */
export function usageFromMessageBody(body: Buffer): TokenUsage | null {
  const trailing = trailingUsage(body);
  return trailing !== undefined ? trailing : usageOfMessage(parseJson(body.toString('utf8')));
}

const USAGE_MEMBER = Buffer.from('"usage":');
const CLOSE_BRACE = 0x7d;
const OPEN_BRACE = 0x7b;
const COMMA = 0x2c;

/**
 * The provider writes `usage` as the last member of its answer, so usage is read from the tail
 * alone, without parsing the content (a full parse cost ~7 µs a request in the bench's profiles). Sound
 * for valid JSON: a `"` right after `,` or `{` opens a member name (inside a string it would be
 * escaped), and a value that parses and is followed only by the closing `}` of the whole body is a
 * member of the outermost object. Anything else (other order, pretty-printed) is undefined: the
 * caller parses the whole body.
 */
export function trailingUsage(body: Buffer): TokenUsage | null | undefined {
  let end = body.length - 1;
  while (end > 0 && isSpace(body[end]!)) end--;
  if (end <= 0 || body[end] !== CLOSE_BRACE) return undefined;
  const at = body.lastIndexOf(USAGE_MEMBER, end);
  if (at <= 0) return undefined;
  const before = body[at - 1];
  if (before !== COMMA && before !== OPEN_BRACE) return undefined;
  const text = body.toString('utf8', at + USAGE_MEMBER.length, end);
  const common = usageOfCommonText(text);
  if (common !== undefined) return common;
  const value = parseJson(text);
  return value === undefined ? undefined : usageOf(value);
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Usage of a parsed Messages response, or null when it carries none. */
export function usageOfMessage(parsed: unknown): TokenUsage | null {
  return isRecord(parsed) ? usageOf(parsed.usage) : null;
}
