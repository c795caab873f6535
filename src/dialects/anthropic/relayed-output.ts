import { BytePattern, viewOf } from '../../lib/bytes/bytes-at.js';
import { DELTA_HEAD, emptyDeltaPlace, readDeltaHead, type DeltaPlace } from './delta-bytes.js';

// How much output a stream relayed to the client, for a request the client cancelled before the
// provider's final usage came (metered by ../../metering/cancelled-usage.ts; finding N3: such a stream was metered at the 1 output token of its first
// event). It reads the provider's SSE events (Anthropic's, which every provider stream is decoded to)
// where the stream's reader found them in the chunk's bytes, without parsing JSON: a
// `content_block_delta` event's value runs from its field ("text", "thinking", "partial_json") to the
// data's closing `"}}`. It counts the value's bytes as they came: escapes as the characters they take on
// the wire and a character beyond ASCII as its two to four bytes, so the estimate errs on the side of
// more (and text in scripts that take a token or more per character comes nearer its real count).
//
// It used to scan the relayed bytes for itself, line by line, beside the parser that already split
// them: two native Buffer searches and a compare per line were about a tenth of a streamed request's
// CPU in the bench's profiles. Counting the events the reader hands over costs a compare of the kind's
// letters in place. An event counts once its closing blank line arrived.

/** Characters per output token in the estimate (English text and JSON come near it). */
export const CHARS_PER_OUTPUT_TOKEN = 4;

const DELTA_EVENT = new BytePattern('{"type":"content_block_delta"');
const VALUE_FIELDS = ['"text":"', '"thinking":"', '"partial_json":"'].map((field) => Buffer.from(field));
const DATA_END = '"}}'.length;
const DELTA_HEAD_BYTES = new BytePattern(DELTA_HEAD);

export class RelayedOutput {
  /** Bytes of text, thinking and tool-argument values seen so far (the characters of ASCII text). */
  chars = 0;
  private readonly place = emptyDeltaPlace();

  /** One provider event's `data`, as the general parser hands it over (a stream that left the usual shape). */
  event(data: string): void {
    const bytes = Buffer.from(data, 'utf8');
    this.eventAt(bytes, viewOf(bytes), 0, bytes.length);
  }

  /** The same for data at bytes[start, end), read in place (../dialects/sse/named-events.ts hands events over so). */
  eventAt(bytes: Buffer, view: DataView, start: number, end: number): void {
    if (DELTA_HEAD_BYTES.startsAt(view, start, end)) this.deltaAt(bytes, view, start + DELTA_HEAD_BYTES.length, end);
    else if (DELTA_EVENT.startsAt(view, start, end)) this.searched(bytes, start + DELTA_EVENT.length, end);
  }

  /** A content_block_delta's data whose DELTA_HEAD ends at `digits`, up to `end`. */
  deltaAt(bytes: Buffer, view: DataView, digits: number, end: number): void {
    if (readDeltaHead(bytes, view, digits, end, this.place)) this.count(end, this.place.valueStart);
    else this.searched(bytes, digits, end);
  }

  /** A delta whose head the caller read already (readDeltaHead), its data ending at `end`. */
  deltaRead(place: DeltaPlace, end: number): void {
    this.count(end, place.valueStart);
  }

  /** Members in another order: the first value field after `from` is the one. */
  private searched(bytes: Buffer, from: number, end: number): void {
    for (let i = 0; i < VALUE_FIELDS.length; i++) {
      const field = VALUE_FIELDS[i]!;
      const at = bytes.indexOf(field, from);
      if (at >= 0 && at < end) return this.count(end, at + field.length);
    }
  }

  private count(end: number, valueStart: number): void {
    this.chars += Math.max(0, end - DATA_END - valueStart);
  }

  /** The output tokens relayed, as estimated from the characters. */
  get tokens(): number {
    return Math.ceil(this.chars / CHARS_PER_OUTPUT_TOKEN);
  }
}
