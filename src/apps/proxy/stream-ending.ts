// Whether a stream relayed byte for byte has already ended the way a whole answer ends: the messages
// surface's message_stop event, or the chat surface's [DONE]. A connection that breaks after that
// owes the client nothing more; before it, the client must be told (relay.ts).
import type { ErrorFormat } from '../../dialects/errors/render.js';

const LAST_DATA: Record<ErrorFormat, string> = {
  messages: 'data: {"type":"message_stop"}',
  chat: 'data: [DONE]',
};

/** Room for the marker and the blank line (\n\n or \r\n\r\n) after it. */
const SLACK = 4;

export class StreamEnding {
  private tail = '';
  private readonly keep: number;

  constructor(private readonly marker: string) {
    this.keep = marker.length + SLACK;
  }

  static of(format: ErrorFormat): StreamEnding {
    return new StreamEnding(LAST_DATA[format]);
  }

  push(chunk: Buffer): void {
    // The markers are ASCII: latin1 keeps one character per byte, so a split UTF-8 sequence costs nothing.
    const text = this.tail + chunk.toString('latin1', Math.max(0, chunk.length - this.keep));
    this.tail = text.slice(-this.keep);
  }

  /** The last thing received was the closing event, followed by nothing but line ends. */
  get complete(): boolean {
    return this.tail.trimEnd().endsWith(this.marker);
  }
}
