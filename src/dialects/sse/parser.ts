// An incremental parser for server-sent events (the WHATWG "event stream" format): LF, CRLF and CR
// line ends (a CR ending one chunk and the LF starting the next count as one), a leading BOM,
// comment lines, `field:value` with one optional space, repeated data lines joined with "\n", and a
// cap on the size of one event.
//
// Hot path. Each chunk is decoded once (a StringDecoder keeps a character split between chunks),
// then lines are found with String#indexOf, which V8 runs without leaving JIT code; this measured
// about twice as fast as scanning the Buffer with Buffer#indexOf and decoding each field
// (bench/micro/sse-parse.ts). A line split across chunks is searched only in its new part and
// joined once, when its end arrives.

import { StringDecoder } from 'node:string_decoder';
import { textAt } from '../../lib/text-at.js';

export interface SseEvent {
  /** The `event:` field, if the event had one. */
  event: string | undefined;
  /** The `data:` lines, joined with "\n". */
  data: string;
}

export class SseEventTooLargeError extends Error {
  readonly code = 'SSE_EVENT_TOO_LARGE';

  constructor(limit: number) {
    super(`server-sent event larger than ${limit} characters`);
    this.name = 'SseEventTooLargeError';
  }
}

/** In UTF-16 code units, which is bytes for the ASCII of JSON. */
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = 0xfeff;

export class SseParser {
  private readonly maxEventChars: number;
  private readonly decoder = new StringDecoder('utf8');
  /** The start of a line whose end has not arrived yet. */
  private pending = '';
  /** The previous chunk ended in CR: an LF starting the next one belongs to that line end. */
  private skipLF = false;
  private atStart = true;
  private eventType: string | undefined = undefined;
  private data: string | null = null;
  private eventChars = 0;

  constructor(
    private readonly onEvent: (ev: SseEvent) => void,
    /** `midStream`: the text pushed first is not the stream's start (no BOM to drop there). */
    options: { maxEventChars?: number; midStream?: boolean } = {},
  ) {
    this.maxEventChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
    if (options.midStream === true) this.atStart = false;
  }

  push(chunk: Buffer): void {
    this.pushText(this.decoder.write(chunk));
  }

  /** Text already decoded (a caller that decodes the chunks itself); a character split across chunks is the caller's to join. */
  pushText(text: string): void {
    const len = text.length;
    let pos = 0;
    if (this.atStart) {
      if (len === 0) return;
      this.atStart = false;
      if (text.charCodeAt(0) === BOM) pos = 1;
    }
    if (this.skipLF && pos < len) {
      if (text.charCodeAt(pos) === LF) pos++;
      this.skipLF = false;
    }
    let lf = -2; // -2: not searched yet; -1: none left in this chunk
    let cr = -2;
    while (pos < len) {
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
      let end: number;
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        if (lf === -1) break;
        end = lf;
        next = lf + 1;
      } else {
        end = cr;
        next = cr + 1;
        if (next === len) this.skipLF = true;
        else if (text.charCodeAt(next) === LF) next++;
      }
      if (this.pending.length === 0) {
        this.line(text, pos, end);
      } else {
        const joined = this.pending + text.slice(pos, end);
        this.pending = '';
        this.line(joined, 0, joined.length);
      }
      pos = next;
    }
    if (pos < len) {
      this.pending = pos === 0 ? this.pending + text : this.pending + text.slice(pos);
      this.checkSize(this.eventChars + this.pending.length);
    }
  }

  /** End of input: an event without its closing blank line is discarded, as the format says. */
  end(): void {
    this.pending = '';
    this.resetEvent();
  }

  private line(t: string, s: number, e: number): void {
    if (s === e) return this.dispatch();
    this.eventChars += e - s + 1;
    this.checkSize(this.eventChars);
    if (t.charCodeAt(s) === COLON) return; // comment
    // Only two field names matter: test them in place rather than search the line for a colon.
    if (isField(t, s, e, 'data')) {
      const value = fieldValue(t, s + 4, e);
      this.data = this.data === null ? value : this.data + '\n' + value;
    } else if (isField(t, s, e, 'event')) {
      this.eventType = fieldValue(t, s + 5, e);
    }
    // `id`, `retry` and unknown fields do not matter to a proxy: ignored.
  }

  private dispatch(): void {
    const data = this.data;
    const event = this.eventType;
    this.resetEvent();
    if (data !== null) this.onEvent({ event, data });
  }

  private resetEvent(): void {
    this.eventType = undefined;
    this.data = null;
    this.eventChars = 0;
  }

  private checkSize(chars: number): void {
    if (chars > this.maxEventChars) throw new SseEventTooLargeError(this.maxEventChars);
  }
}

/** The line is `name` alone or `name:…` (textAt, not String#startsWith: bench/README.md, issue 35). */
function isField(t: string, s: number, e: number, name: string): boolean {
  const after = s + name.length;
  return (after === e || (after < e && t.charCodeAt(after) === COLON)) && textAt(t, s, name);
}

/** The value after the field name ending at `at` (the colon, or the line end); one leading space is dropped. */
function fieldValue(t: string, at: number, e: number): string {
  let v = at + 1;
  if (v < e && t.charCodeAt(v) === SPACE) v++;
  return v >= e ? '' : t.slice(v, e);
}
