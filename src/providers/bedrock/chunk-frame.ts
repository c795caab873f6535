// The short way for Bedrock's usual message, a `chunk` event with its three headers in Bedrock's
// order. Reading those headers with @smithy/eventstream-codec (which stays the decoder of every other
// message) cost more than everything else per event together, and they are the same bytes in every
// chunk event: a message whose header block equals the one the codec itself encodes for a chunk
// event is recognised by comparing bytes, and still checked as the codec checks every message: the
// prelude's CRC and the whole message's CRC (crc32.ts: no call into zlib, no subarray per message;
// the header block, once compared, enters the CRC in four table lookups instead of 75 steps).
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { crc32, KnownBytesCrc } from '../../lib/bytes/crc32.js';
import { EventStreamError } from './event-stream-error.js';

const stringHeader = (value: string) => ({ type: 'string' as const, value });
/** Only for encoding the header block below (UTF-8 both ways). */
const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);
/** The header block of a chunk event, in the order Bedrock sends its headers. */
const CHUNK_HEADERS = Buffer.from(
  codec.formatHeaders({ ':event-type': stringHeader('chunk'), ':content-type': stringHeader('application/json'), ':message-type': stringHeader('event') }),
);
/** Total length and header length, then the prelude's CRC. */
const PRELUDE_BYTES = 8;
const HEADERS_START = PRELUDE_BYTES + 4;
const HEADERS_END = HEADERS_START + CHUNK_HEADERS.length;
const CHUNK_HEADERS_CRC = new KnownBytesCrc(CHUNK_HEADERS);
const MESSAGE_CRC_BYTES = 4;

/** Whether `bytes` holds the chunk event's header block at `at` (a loop: cheaper than a native compare at this size). */
function hasChunkHeaders(bytes: Buffer, at: number): boolean {
  for (let i = 0; i < CHUNK_HEADERS.length; i++) if (bytes[at + i] !== CHUNK_HEADERS[i]) return false;
  return true;
}

/**
 * Where the payload of the message `bytes[start, start + length)` starts when it is a chunk event in
 * Bedrock's usual header order (its CRCs checked; the payload ends 4 bytes before the message), or
 * -1 for any other message. A CRC that does not match throws.
 */
export function chunkPayloadStart(bytes: Buffer, start: number, length: number): number {
  if (length < HEADERS_END + MESSAGE_CRC_BYTES || bytes.readUInt32BE(start + 4) !== CHUNK_HEADERS.length || !hasChunkHeaders(bytes, start + HEADERS_START)) return -1;
  const end = start + length;
  const prelude = crc32(bytes, start, start + PRELUDE_BYTES);
  if (prelude !== bytes.readUInt32BE(start + PRELUDE_BYTES)) throw new EventStreamError('event stream message not readable: its prelude checksum does not match');
  // The message's CRC runs on over the prelude's CRC, the header block (the bytes compared above) and the payload.
  const headers = CHUNK_HEADERS_CRC.after(crc32(bytes, start + PRELUDE_BYTES, start + HEADERS_START, prelude));
  if (crc32(bytes, start + HEADERS_END, end - MESSAGE_CRC_BYTES, headers) !== bytes.readUInt32BE(end - MESSAGE_CRC_BYTES)) {
    throw new EventStreamError('event stream message not readable: its checksum does not match');
  }
  return start + HEADERS_END;
}
