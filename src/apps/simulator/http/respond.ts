// Response headers and bodies in the provider's shape: request-id on everything, rate-limit
// headers so pass-through can be tested, errors as {"type":"error","error":{…},"request_id"}.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ErrorResponse } from '../../../dialects/anthropic/wire.js';
import { endJson } from '../../../lib/json-response.js';
import type { ApiFailure } from '../types.js';

const ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

const STATUS_ERROR: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(ERROR_STATUS).map(([type, status]) => [status, type]),
);

const DEFAULT_MESSAGES: Readonly<Record<string, string>> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  billing_error: 'Your credit balance is too low to access the API.',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not Found',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of requests has exceeded your rate limit. Please try again later.',
  api_error: 'Internal server error',
  timeout_error: 'Request timed out',
  overloaded_error: 'Overloaded',
};

export function statusForErrorType(type: string): number {
  return ERROR_STATUS[type] ?? 500;
}

export function errorTypeForStatus(status: number): string {
  return STATUS_ERROR[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function defaultErrorMessage(type: string): string {
  return DEFAULT_MESSAGES[type] ?? 'Error';
}

// The reset time is an RFC 3339 instant a minute ahead; recomputed at most once a second.
let resetSecond = 0;
let resetText = '';
function rateLimitReset(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== resetSecond) {
    resetSecond = second;
    resetText = new Date((second + 60) * 1000).toISOString().replace('.000Z', 'Z');
  }
  return resetText;
}

export function baseHeaders(requestId: string): OutgoingHttpHeaders {
  const reset = rateLimitReset();
  return {
    'request-id': requestId,
    'anthropic-organization-id': '00000000-0000-4000-8000-00000000517a',
    'anthropic-ratelimit-requests-limit': '4000',
    'anthropic-ratelimit-requests-remaining': '3999',
    'anthropic-ratelimit-requests-reset': reset,
    'anthropic-ratelimit-tokens-limit': '2000000',
    'anthropic-ratelimit-tokens-remaining': '1999000',
    'anthropic-ratelimit-tokens-reset': reset,
  };
}

export function sendJson(res: ServerResponse, status: number, requestId: string, body: unknown, extra?: OutgoingHttpHeaders): void {
  endJson(res, status, JSON.stringify(body), Object.assign(baseHeaders(requestId), extra));
}

export function errorBody(failure: ApiFailure, requestId: string): ErrorResponse {
  return { type: 'error', error: { type: failure.type, message: failure.message }, request_id: requestId };
}

export function sendError(res: ServerResponse, requestId: string, failure: ApiFailure): void {
  const extra: OutgoingHttpHeaders = {};
  if (failure.retryAfter !== undefined) extra['retry-after'] = String(failure.retryAfter);
  if (failure.status === 413) extra.connection = 'close';
  sendJson(res, failure.status, requestId, errorBody(failure, requestId), extra);
}

export const STREAM_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};
