// The provider's error types and the HTTP status each comes with (docs/wire.md, "Errors"). Shared by
// the simulator, which answers with them, and the cloud providers, whose own errors are mapped onto them.
import type { ErrorType } from './wire.js';

export const ERROR_STATUS: Readonly<Record<ErrorType, number>> = Object.freeze({
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
});

/** The status of a known error type; an unknown one is the provider's internal error. */
export function statusForErrorType(type: string): number {
  return Object.hasOwn(ERROR_STATUS, type) ? ERROR_STATUS[type as ErrorType] : 500;
}

const TYPE_OF_STATUS: ReadonlyMap<number, ErrorType> = new Map(Object.entries(ERROR_STATUS).map(([type, status]) => [status, type as ErrorType]));

/** The error type of a status, for answers that do not name one: a 5xx is an internal error, another 4xx an invalid request. */
export function errorTypeForStatus(status: number): ErrorType {
  return TYPE_OF_STATUS.get(status) ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}
