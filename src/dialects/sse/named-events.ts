// Reads an event stream in the shape providers write it: every event an `event: <name>` line and one
// `data: <json>` line, LF line ends, a blank line after each. Such an event is handed over as
// positions in the decoded chunk (no line strings, no event object); the reader decides from the name
// whether it wants the data at all. The first thing outside that shape (a CR, a BOM, a comment, a
// nameless or multi-line event, another field) hands the rest of the stream, from the start of that
// event, to the general parser (./parser.ts), which reads every form the format allows.
//
// Why: the usage observer of the messages surface parsed every event of a relayed stream with the
// general parser and looked at each one's strings, to use three of them (message_start, message_delta,
// error) and count the deltas' characters: about 1M instructions for a 200-token stream, as much as
// the rest of the request (bench/README.md, issue 35). Two line searches and a name check per event
// cost a fraction of it.
import { StringDecoder } from 'node:string_decoder';
import { startsAt, textAt } from '../../lib/text-at.js';
import { DEFAULT_MAX_EVENT_CHARS, SseEventTooLargeError, SseParser, type SseEvent } from './parser.js';

export interface NamedEventSink {
  /**
   * An event of the usual shape: its name is text[nameStart, nameEnd), its data text[dataStart, dataEnd).
   * `text` is only valid during the call.
   */
  named(text: string, nameStart: number, nameEnd: number, dataStart: number, dataEnd: number): void;
  /** Every event once the stream left the usual shape, as the general parser dispatches it. */
  event(ev: SseEvent): void;
  /** The hot event (see NamedEventReader), its data from just after the hot data head to dataEnd. */
  hot?(text: string, afterHead: number, dataEnd: number): void;
}

const LF = 0x0a;
const CR = '\r';
const BOM = 0xfeff;
const EVENT_FIELD = 'event: ';
const DATA_FIELD = 'data: ';
/** An event still waiting for its end at this size goes to the general parser (see push). */
const LONG_EVENT_CHARS = 64 * 1024;

export class NamedEventReader {
  private readonly decoder = new StringDecoder('utf8');
  /** The start of an event whose blank line has not arrived yet. */
  private rest = '';
  private started = false;
  private general: SseParser | null = null;
  /** `event: <hot name>\ndata: <hot data head>`, or null. */
  private readonly hotHead: string | null;
  private readonly maxEventChars: number;

  /**
   * `hot`: the event most of the stream is made of (a delta) and how its data starts: one compare
   * recognises it, name, fields and all, and the line search for its name is skipped.
   */
  constructor(
    private readonly sink: NamedEventSink,
    options: { maxEventChars?: number; hot?: { name: string; dataHead: string } } = {},
  ) {
    this.maxEventChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
    this.hotHead = options.hot === undefined ? null : `${EVENT_FIELD}${options.hot.name}\n${DATA_FIELD}${options.hot.dataHead}`;
  }

  /** Throws SseEventTooLargeError when one event outgrows the limit. */
  push(chunk: Buffer): void {
    let text = this.decoder.write(chunk);
    if (this.general !== null) return this.general.pushText(text);
    if (!this.started) {
      if (text.length === 0) return;
      this.started = true;
      if (text.charCodeAt(0) === BOM) return this.toGeneral(text, 0, false);
    }
    if (this.rest.length > 0) {
      text = this.rest + text;
      this.rest = '';
    }
    if (text.indexOf(CR) !== -1) return this.toGeneral(text, 0, true);
    const len = text.length;
    let pos = 0;
    while (pos < len) {
      if (text.charCodeAt(pos) === LF) {
        pos++; // an empty line with no event before it: dispatches nothing
        continue;
      }
      const hotHead = this.hotHead;
      if (hotHead !== null && textAt(text, pos, hotHead)) {
        const afterHead = pos + hotHead.length;
        const dataEnd = text.indexOf('\n', afterHead);
        if (dataEnd === -1 || dataEnd + 1 === len) break;
        if (text.charCodeAt(dataEnd + 1) !== LF) return this.toGeneral(text, pos, true);
        this.sink.hot!(text, afterHead, dataEnd);
        pos = dataEnd + 2;
        continue;
      }
      const nameEnd = text.indexOf('\n', pos);
      if (nameEnd === -1) break;
      const dataEnd = text.indexOf('\n', nameEnd + 1);
      if (dataEnd === -1 || dataEnd + 1 === len) break; // the data line or the blank line is still to come
      if (text.charCodeAt(dataEnd + 1) !== LF || !startsAt(text, pos, nameEnd, EVENT_FIELD) || !startsAt(text, nameEnd + 1, dataEnd, DATA_FIELD)) {
        return this.toGeneral(text, pos, true);
      }
      this.sink.named(text, pos + EVENT_FIELD.length, nameEnd, nameEnd + 1 + DATA_FIELD.length, dataEnd);
      pos = dataEnd + 2;
    }
    if (pos < len) {
      const rest = pos === 0 ? text : text.slice(pos);
      if (rest.length > this.maxEventChars) throw new SseEventTooLargeError(this.maxEventChars);
      // Each chunk searches the waiting event again from its start: past this size the general parser,
      // which searches only the new part of a line, reads on.
      if (rest.length > LONG_EVENT_CHARS) return this.toGeneral(rest, 0, true);
      this.rest = rest;
    }
  }

  /** End of input: an event without its closing blank line is discarded, as the format says. */
  end(): void {
    this.rest = '';
    this.general?.end();
  }

  /**
   * The rest of the stream goes through the general parser, from text[pos] (the start of an event).
   * `midStream`: the stream's first character was no BOM, so a U+FEFF here is text, not one to drop.
   */
  private toGeneral(text: string, pos: number, midStream: boolean): void {
    this.general = new SseParser((ev) => this.sink.event(ev), { maxEventChars: this.maxEventChars, midStream });
    this.general.pushText(pos === 0 ? text : text.slice(pos));
  }
}
