// Error bodies in each surface's own shape (docs/contract.md, "Errors").
import type { ServerResponse } from 'node:http';
import type { ErrorCode } from './codes.js';
import { ERRORS } from './codes.js';
import type { ChatErrorBody } from '../openai/wire.js';
import type { ErrorResponse } from '../anthropic/wire.js';
import { endJson } from '../../lib/json-response.js';

/** Which error format a route answers in. */
export type ErrorFormat = 'messages' | 'chat';

export function messagesErrorBody(type: string, message: string): ErrorResponse {
  return { type: 'error', error: { type, message } };
}

export function chatErrorBody(type: string, code: string | null, message: string, param: string | null): ChatErrorBody {
  return { error: { message, type, param, code } };
}

export function renderError(format: ErrorFormat, code: ErrorCode, message: string, param: string | null): string {
  const spec = ERRORS[code];
  return JSON.stringify(
    format === 'messages'
      ? messagesErrorBody(spec.messagesType, message)
      : chatErrorBody(spec.chatType, spec.chatCode, message, param),
  );
}

/** Answers with an error before any stage ran (no route, load shedding) or outside the gateway (the proxy). */
export function writeErrorResponse(res: ServerResponse, requestId: string, format: ErrorFormat, code: ErrorCode, message: string): void {
  if (res.headersSent || res.destroyed) return;
  endJson(res, ERRORS[code].status, renderError(format, code, message, null), { 'request-id': requestId, 'x-request-id': requestId });
}
