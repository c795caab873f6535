// The final error event of a stream that already started, in each surface's format (docs/contract.md, "Errors").
import { chatErrorBody, messagesErrorBody } from './render.js';

export function messagesErrorEvent(type: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify(messagesErrorBody(type, message))}\n\n`;
}

export function chatErrorFrames(type: string, code: string, message: string): string {
  return `data: ${JSON.stringify(chatErrorBody(type, code, message, null))}\n\ndata: [DONE]\n\n`;
}

export interface StreamFailure {
  messagesType: string;
  chatType: string;
  chatCode: string;
  message: string;
}

const IDLE: StreamFailure = {
  messagesType: 'timeout_error',
  chatType: 'timeout_error',
  chatCode: 'upstream_timeout',
  message: 'The upstream stream went silent for longer than the idle timeout.',
};
const BROKEN: StreamFailure = {
  messagesType: 'api_error',
  chatType: 'api_error',
  chatCode: 'upstream_stream_interrupted',
  message: 'The upstream stream ended before the message was complete.',
};

/** How to tell the client that the upstream stream failed after it began. */
export function streamFailureOf(err: unknown): StreamFailure {
  const code = (err as { code?: string } | null)?.code;
  return code === 'UND_ERR_BODY_TIMEOUT' ? IDLE : BROKEN;
}

export const STREAM_INTERRUPTED = BROKEN;
