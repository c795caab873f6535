// Reads an event stream in the shape providers write it: every event an `event: <name>` line and one
// `data: <json>` line, LF line ends, a blank line after each. Such an event is handed over as
// positions in the chunk's bytes as they came (no decoding, no line strings, no event object); the
// reader decides from the name whether it wants the data at all, and decodes only that. The first
// thing outside that shape (a CR, a BOM, a comment, a nameless or multi-line event, another field)
// hands the rest of the stream, from the start of that event, to the general parser (./parser.ts),
// which reads every form the format allows.
//
// Why bytes: the reader used to decode every chunk to a string and read the events in it. For a
// 200-token stream that decoding, and the copy that joined an event split across two chunks to the
// next chunk's text, were half of what the gateway allocated per stream (bench/README.md, issue 35),
// and every compare of an event's head against a cut of that text went through a runtime call. The
// bytes need neither: an event's head is compared byte by byte where it lies.
import { BytePattern, viewOf } from '../../lib/bytes/bytes-at.js';
import { DEFAULT_MAX_EVENT_CHARS, SseEventTooLargeError, SseParser, type SseEvent } from './parser.js';

export interface NamedEventSink {
  /**
   * An event of the usual shape: its name is bytes[nameStart, nameEnd), its data bytes[dataStart, dataEnd).
   * `view` is a DataView on the same bytes (for BytePattern); both are only valid during the call.
   */
  named(bytes: Buffer, view: DataView, nameStart: number, nameEnd: number, dataStart: number, dataEnd: number): void;
  /** Every event once the stream left the usual shape, as the general parser dispatches it. */
  event(ev: SseEvent): void;
  /** The hot event (see NamedEventReader), its data from just after the hot data head to dataEnd. */
  hot?(bytes: Buffer, view: DataView, afterHead: number, dataEnd: number): void;
}

const LF = 0x0a;
const CR = 0x0d;
/** The first byte of a UTF-8 BOM: no event of the usual shape starts with it. */
const BOM_FIRST = 0xef;
const EVENT_FIELD = new BytePattern('event: ');
const DATA_FIELD = new BytePattern('data: ');
/**
 * Buffer#indexOf, called as a function: as a method of the chunk, V8 looked it up with a generic load
 * per event (callgrind, issue 35).
 */
const indexOf = Buffer.prototype.indexOf;
/** An event still waiting for its end at this size goes to the general parser (see push). */
const LONG_EVENT_BYTES = 64 * 1024;

/** The event a reader is told most of its stream is made of (see NamedEventReader). */
export interface HotEvent {
  readonly name: string;
  readonly dataHead: string;
}

/**
 * The hot heads made so far, by the HotEvent object a reader is given: a reader is made per stream,
 * its head once per process, found by the object alone (a key string built and hashed per stream cost
 * ~0.8 µs a stream in the gateway's profile, issue 35). Callers keep their HotEvent in a constant.
 */
const hotHeads = new WeakMap<HotEvent, BytePattern>();

function hotHeadOf(hot: HotEvent): BytePattern {
  let head = hotHeads.get(hot);
  if (head === undefined) {
    head = new BytePattern(`event: ${hot.name}\ndata: ${hot.dataHead}`);
    hotHeads.set(hot, head);
  }
  return head;
}

/**
 * Just past the chunk's first blank line (LF LF), or -1. Found line end by line end: a search for the
 * two bytes as a Buffer takes Buffer#indexOf's slow path, ~80 ns, where one for a byte takes ~10 (issue 35).
 */
function blankLineEnd(chunk: Buffer): number {
  for (let at = indexOf.call(chunk, LF); at !== -1; at = indexOf.call(chunk, LF, at + 1)) {
    if (chunk[at + 1] === LF) return at + 2;
  }
  return -1;
}

export class NamedEventReader {
  /** A copy of the start of an event whose blank line has not arrived yet. */
  private rest: Buffer | null = null;
  private started = false;
  private general: SseParser | null = null;
  /** `event: <hot name>\ndata: <hot data head>`, or null. */
  private readonly hotHead: BytePattern | null;
  private readonly maxEventBytes: number;

  /**
   * `hot`: the event most of the stream is made of (a delta) and how its data starts: one compare
   * recognises it, name, fields and all, and the line search for its name is skipped.
   * `maxEventChars`: the largest event, in bytes here (the general parser counts characters: the same
   * for the ASCII of JSON).
   */
  constructor(
    private readonly sink: NamedEventSink,
    options: { maxEventChars?: number; hot?: HotEvent } = {},
  ) {
    this.maxEventBytes = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
    this.hotHead = options.hot === undefined ? null : hotHeadOf(options.hot);
  }

  /** Throws SseEventTooLargeError when one event outgrows the limit. */
  push(chunk: Buffer): void {
    if (this.general !== null) return this.general.push(chunk);
    if (chunk.length === 0) return;
    if (!this.started) {
      this.started = true;
      if (chunk[0] === BOM_FIRST) {
        this.toGeneral(chunk, 0, false);
        return;
      }
    }
    if (indexOf.call(chunk, CR) !== -1) {
      this.toGeneral(this.withRest(chunk), 0, true);
      return;
    }
    let bytes = chunk;
    let from = 0;
    if (this.rest !== null) {
      // The waiting event ends at the first blank line: it alone is joined (a small copy) and read, and
      // the chunk is read in place after it, not copied whole behind the waiting start.
      const rest = this.rest;
      // Just past the blank line: the waiting start's last LF and the chunk's first make one, or the chunk holds one.
      const end = rest[rest.length - 1] === LF && chunk[0] === LF ? 1 : blankLineEnd(chunk);
      if (end === -1) {
        bytes = this.withRest(chunk);
      } else {
        this.rest = null;
        const head = Buffer.concat([rest, chunk.subarray(0, end)], rest.length + end);
        const stop = this.scan(head, 0, head.length);
        // scan() may have handed the stream to the general parser.
        const general = this.general as SseParser | null;
        if (general !== null) {
          general.push(chunk.subarray(end));
          return;
        }
        // A blank line that did not end an event of the usual shape (a name with no data): read on from there.
        if (stop < head.length) bytes = Buffer.concat([head.subarray(stop), chunk.subarray(end)]);
        else from = end;
      }
    }
    const len = bytes.length;
    const pos = this.scan(bytes, from, len);
    if (pos >= len) return;
    const restLength = len - pos;
    if (restLength > this.maxEventBytes) throw new SseEventTooLargeError(this.maxEventBytes);
    // Each chunk searches the waiting event again from its start: past this size the general parser,
    // which searches only the new part of a line, reads on.
    if (restLength > LONG_EVENT_BYTES) {
      this.toGeneral(bytes, pos, true);
      return;
    }
    // A copy: a view would keep the whole chunk alive while the stream waits for the rest. Made by
    // hand: Buffer.from of a view took the generic array-like path, a view and a copy per chunk.
    const rest = Buffer.allocUnsafe(restLength);
    bytes.copy(rest, 0, pos, len);
    this.rest = rest;
  }

  /** End of input: an event without its closing blank line is discarded, as the format says. */
  end(): void {
    this.rest = null;
    this.general?.end();
  }

  /** The waiting start and the chunk as one buffer (the waiting start is taken). */
  private withRest(chunk: Buffer): Buffer {
    const rest = this.rest;
    if (rest === null) return chunk;
    this.rest = null;
    return Buffer.concat([rest, chunk], rest.length + chunk.length);
  }

  /** Hands over the whole events in bytes[from, len); returns where the first incomplete one starts (len when none). */
  private scan(bytes: Buffer, from: number, len: number): number {
    const hotHead = this.hotHead;
    const view = viewOf(bytes);
    let pos = from;
    while (pos < len) {
      if (bytes[pos] === LF) {
        pos++; // an empty line with no event before it: dispatches nothing
        continue;
      }
      if (hotHead !== null && hotHead.at(view, pos, len)) {
        const afterHead = pos + hotHead.length;
        const dataEnd = indexOf.call(bytes, LF, afterHead);
        if (dataEnd === -1 || dataEnd + 1 === len) return pos;
        if (bytes[dataEnd + 1] !== LF) return this.toGeneral(bytes, pos, true);
        this.sink.hot!(bytes, view, afterHead, dataEnd);
        pos = dataEnd + 2;
        continue;
      }
      const nameEnd = indexOf.call(bytes, LF, pos);
      if (nameEnd === -1) return pos;
      const dataEnd = indexOf.call(bytes, LF, nameEnd + 1);
      if (dataEnd === -1 || dataEnd + 1 === len) return pos; // the data line or the blank line is still to come
      if (bytes[dataEnd + 1] !== LF || !EVENT_FIELD.startsAt(view, pos, nameEnd) || !DATA_FIELD.startsAt(view, nameEnd + 1, dataEnd)) {
        return this.toGeneral(bytes, pos, true);
      }
      this.sink.named(bytes, view, pos + EVENT_FIELD.length, nameEnd, nameEnd + 1 + DATA_FIELD.length, dataEnd);
      pos = dataEnd + 2;
    }
    return pos;
  }

  /**
   * The rest of the stream goes through the general parser, from bytes[pos] (the start of an event).
   * `midStream`: the stream's first byte was no BOM's, so a U+FEFF here is text, not one to drop.
   * Returns the end of the bytes: the general parser took them all.
   */
  private toGeneral(bytes: Buffer, pos: number, midStream: boolean): number {
    this.general = new SseParser((ev) => this.sink.event(ev), { maxEventChars: this.maxEventBytes, midStream });
    this.general.push(pos === 0 ? bytes : bytes.subarray(pos));
    return bytes.length;
  }
}
