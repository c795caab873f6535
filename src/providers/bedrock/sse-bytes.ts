// The SSE bytes of one push into the Bedrock stream decoder, written into one buffer. A chunk event
// in the usual shape (`{"bytes":"<base64>"` first, its event JSON starting with its type, no line
// break) is written with no string and no buffer of its own: the base64 is decoded straight into the
// output, where the event's data line starts, and its `event:` line is written in front of it.
// A profile of the earlier version (the base64 made a string, decoded into a scratch buffer, searched
// natively four times and copied twice) spent more there than in the CRCs.
import { decodeQuotedBase64Into } from '../../lib/bytes/base64-into.js';

const EMPTY = Buffer.alloc(0);
const BYTES_MEMBER = Buffer.from('{"bytes":"', 'latin1');
const TYPE_PREFIX = Buffer.from('{"type":"', 'latin1');
const EVENT_LINE = Buffer.from('event: ', 'latin1');
const DATA_LINE = Buffer.from('\ndata: ', 'latin1');
/**
 * Nearly every event of a stream is a text or tool delta: the decoded JSON is put where its data
 * line starts after an `event: content_block_delta` line, so that it moves only for the other types.
 */
const USUAL_DATA_OFFSET = EVENT_LINE.length + 'content_block_delta'.length + DATA_LINE.length;
/** message_stop takes the general way: Bedrock's metrics are removed from it. */
const MESSAGE_STOP = Buffer.from('message_stop', 'latin1');
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

function startsWith(bytes: Buffer, at: number, prefix: Buffer): boolean {
  if (bytes.length - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

function equalsRange(bytes: Buffer, start: number, end: number, expected: Buffer): boolean {
  return end - start === expected.length && startsWith(bytes, start, expected);
}

/** A line break cannot go in an SSE data line; JSON may hold one only as whitespace. */
function hasLineBreak(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (byte === LF || byte === CR) return true;
  }
  return false;
}

export class SseBytes {
  private buf: Buffer;
  /** Where the next event goes: everything before it is output. */
  private at = 0;

  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /**
   * Writes the chunk event whose payload is `bytes[start, end)` and returns true, when it is in the
   * usual shape; otherwise writes nothing and returns false, for the general way.
   */
  chunkEvent(bytes: Buffer, start: number, end: number): boolean {
    if (!startsWith(bytes, start, BYTES_MEMBER)) return false;
    const base64Start = start + BYTES_MEMBER.length;
    // Three bytes for every four characters at most, and the two line feeds after the data line.
    this.room(USUAL_DATA_OFFSET + (((end - base64Start) * 3) >> 2) + 2);
    let buf = this.buf;
    const jsonStart = this.at + USUAL_DATA_OFFSET;
    const jsonLength = decodeQuotedBase64Into(bytes, base64Start, end, buf, jsonStart);
    if (jsonLength < TYPE_PREFIX.length || !startsWith(buf, jsonStart, TYPE_PREFIX)) return false;
    const jsonEnd = jsonStart + jsonLength;
    const typeStart = jsonStart + TYPE_PREFIX.length;
    let typeEnd = typeStart;
    while (typeEnd < jsonEnd && buf[typeEnd] !== QUOTE) typeEnd++;
    if (typeEnd === jsonEnd || equalsRange(buf, typeStart, typeEnd, MESSAGE_STOP) || hasLineBreak(buf, jsonStart, jsonEnd)) return false;

    const typeLength = typeEnd - typeStart;
    const dataOffset = EVENT_LINE.length + typeLength + DATA_LINE.length;
    let data = jsonStart;
    if (dataOffset !== USUAL_DATA_OFFSET) {
      this.room(dataOffset + jsonLength + 2, jsonEnd);
      buf = this.buf;
      data = this.at + dataOffset;
      buf.copyWithin(data, jsonStart, jsonEnd);
    }
    // The type is copied from the JSON (now at `data`), which always lies after the bytes written here.
    let out = this.at;
    for (let i = 0; i < EVENT_LINE.length; i++) buf[out++] = EVENT_LINE[i]!;
    const type = data + TYPE_PREFIX.length;
    for (let i = 0; i < typeLength; i++) buf[out++] = buf[type + i]!;
    for (let i = 0; i < DATA_LINE.length; i++) buf[out++] = DATA_LINE[i]!;
    out += jsonLength;
    buf[out++] = LF;
    buf[out++] = LF;
    this.at = out;
    return true;
  }

  text(text: string): void {
    if (text === '') return;
    this.room(Buffer.byteLength(text));
    this.at += this.buf.write(text, this.at, 'utf8');
  }

  bytes(): Buffer {
    return this.at === 0 ? EMPTY : this.buf.subarray(0, this.at);
  }

  /** At least `needed` bytes free from `at`; a grown buffer keeps what was written up to `keep`. */
  private room(needed: number, keep = this.at): void {
    if (this.buf.length - this.at >= needed) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + needed, keep));
    this.buf.copy(grown, 0, 0, keep);
    this.buf = grown;
  }
}
