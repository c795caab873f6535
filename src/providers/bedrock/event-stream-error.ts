/** Bedrock's answer could not be read as an event stream (a bad length or CRC, an event that is not JSON). */
export class EventStreamError extends Error {
  override readonly name = 'EventStreamError';
}
