// What a stream translator emits, before it becomes SSE bytes.
import { frameBytes, type FrameBytes } from './frame-output.js';

export type Frame =
  /** `data: <json>\n\n`; json is already serialised. */
  | { kind: 'data'; json: string }
  /** `event: <name>\ndata: <json>\n\n`: a named event (the Responses stream names each one). */
  | { kind: 'event'; event: string; json: string }
  /** Text already framed, blank line included: a hot event built from a prefix made once. */
  | { kind: 'framed'; text: string }
  /** `: <text>\n\n`, a comment: keeps the connection alive (e.g. the provider's ping). */
  | { kind: 'comment'; text: string }
  /** `data: [DONE]\n\n`, the chat-completions end marker. */
  | { kind: 'done' };

export function frameText(frame: Frame): string {
  switch (frame.kind) {
    case 'data':
      return `data: ${frame.json}\n\n`;
    case 'event':
      return `event: ${frame.event}\ndata: ${frame.json}\n\n`;
    case 'framed':
      return frame.text;
    case 'comment':
      // A line break inside a comment would start a new field: flatten it.
      return `: ${frame.text.replace(/[\r\n]/g, ' ')}\n\n`;
    case 'done':
      return 'data: [DONE]\n\n';
  }
}

/** A data frame before and after a piece spliced in later, as text and as bytes (a hot frame: see FrameOutput). */
export interface FramePieces {
  beforeText: string;
  afterText: string;
  bytes: FrameBytes;
}

/** Where the piece goes in the JSON given to dataFrameAround: a character JSON.stringify never leaves raw. */
export const PIECE = '\u0000';

/** `json` holds PIECE once: the data frame around it, as bytes made once. */
export function dataFrameAround(json: string): FramePieces {
  const text = frameText({ kind: 'data', json });
  const at = text.indexOf(PIECE);
  if (at === -1 || text.indexOf(PIECE, at + 1) !== -1) throw new Error('dataFrameAround: the JSON must hold the piece once');
  const beforeText = text.slice(0, at);
  const afterText = text.slice(at + 1);
  return { beforeText, afterText, bytes: frameBytes(beforeText, afterText) };
}
