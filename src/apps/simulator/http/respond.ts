// Response headers and bodies in the provider's shape: request-id on everything, the account's
// rate-limit headers, errors as {"type":"error","error":{…},"request_id"}.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ErrorResponse } from '../../../dialects/anthropic/wire.js';
import { endJson } from '../../../lib/json-response.js';
import { AccountLimits } from '../accounts/rate-limits.js';
import type { ApiFailure } from '../types.js';

export { errorTypeForStatus, statusForErrorType } from '../../../dialects/anthropic/error-status.js';

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

export function defaultErrorMessage(type: string): string {
  return DEFAULT_MESSAGES[type] ?? 'Error';
}

/** The headers of an answer no account is known for yet: nothing metered. */
const UNMETERED = new AccountLimits();

export function unmeteredRateHeaders(now: number): Readonly<Record<string, string>> {
  return UNMETERED.headers(now);
}

export function baseHeaders(requestId: string, rateLimits: Readonly<Record<string, string>>): OutgoingHttpHeaders {
  return { 'request-id': requestId, 'anthropic-organization-id': '00000000-0000-4000-8000-00000000517a', ...rateLimits };
}

export function sendJson(res: ServerResponse, status: number, requestId: string, body: unknown, rateLimits: Readonly<Record<string, string>>, extra?: OutgoingHttpHeaders): void {
  endJson(res, status, JSON.stringify(body), Object.assign(baseHeaders(requestId, rateLimits), extra));
}

export function errorBody(failure: ApiFailure, requestId: string): ErrorResponse {
  return { type: 'error', error: { type: failure.type, message: failure.message }, request_id: requestId };
}

export function sendError(res: ServerResponse, requestId: string, failure: ApiFailure, rateLimits: Readonly<Record<string, string>>): void {
  const extra: OutgoingHttpHeaders = {};
  if (failure.retryAfter !== undefined) extra['retry-after'] = String(failure.retryAfter);
  if (failure.status === 413) extra.connection = 'close';
  sendJson(res, failure.status, requestId, errorBody(failure, requestId), rateLimits, extra);
}

export const STREAM_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};
