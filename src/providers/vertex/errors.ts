// Vertex AI's errors restated in the provider's error shape. Vertex answers in two shapes: its own
// front end (authentication, permissions, quotas, unknown models) in Google's
// `{"error":{"code","message","status"}}` (streamRawPredict may wrap it in a one-element array), and
// the model's own errors (an invalid request, overloaded) in the provider's shape, as the provider
// wrote them. The first is mapped by its canonical `status`; the second is already what an anthropic
// route sends and may go out unchanged.
import { errorTypeForStatus, statusForErrorType } from '../../dialects/anthropic/error-status.js';
import { isRecord } from '../../lib/is-record.js';
import { firstHeader, type ProviderErrorAnswer } from '../provider-error.js';

/** Google's canonical error codes → the provider's error types. */
const TYPE_OF_STATUS: Readonly<Record<string, string>> = {
  RESOURCE_EXHAUSTED: 'rate_limit_error',
  UNAUTHENTICATED: 'authentication_error',
  PERMISSION_DENIED: 'permission_error',
  NOT_FOUND: 'not_found_error',
  INVALID_ARGUMENT: 'invalid_request_error',
  FAILED_PRECONDITION: 'invalid_request_error',
  OUT_OF_RANGE: 'invalid_request_error',
  UNIMPLEMENTED: 'invalid_request_error',
  // Capacity: the model or the region cannot take the call now, as the provider's 529 says.
  UNAVAILABLE: 'overloaded_error',
  DEADLINE_EXCEEDED: 'timeout_error',
  INTERNAL: 'api_error',
  UNKNOWN: 'api_error',
  DATA_LOSS: 'api_error',
  ABORTED: 'api_error',
  CANCELLED: 'api_error',
};

interface GoogleError {
  code?: unknown;
  message?: unknown;
  status?: unknown;
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

/** `{"error":{…}}`, or the same as the one element of an array. */
function googleErrorOf(parsed: unknown): GoogleError | null {
  const outer = Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : parsed;
  return isRecord(outer) && isRecord(outer.error) && outer.type === undefined ? (outer.error as GoogleError) : null;
}

/** `{"type":"error","error":{"type","message"}}`: the provider's own shape. */
function providerErrorOf(parsed: unknown): { type: string; message: string } | null {
  if (!isRecord(parsed) || parsed.type !== 'error' || !isRecord(parsed.error)) return null;
  const { type, message } = parsed.error;
  return typeof type === 'string' && typeof message === 'string' ? { type, message } : null;
}

/** A Vertex HTTP error (any status of 400 or more) as the provider's error answer. */
export function vertexErrorAnswer(status: number, headers: Readonly<Record<string, string | string[] | undefined>>, body: Buffer): ProviderErrorAnswer {
  const parsed = parse(body);
  const retryAfter = firstHeader(headers, 'retry-after');
  const own = providerErrorOf(parsed);
  if (own !== null) return { status, type: own.type, message: own.message, retryAfter, throttled: own.type === 'rate_limit_error', providerShaped: true };
  const google = googleErrorOf(parsed);
  const canonical = typeof google?.status === 'string' ? google.status : null;
  const type = canonical !== null && Object.hasOwn(TYPE_OF_STATUS, canonical) ? TYPE_OF_STATUS[canonical]! : errorTypeForStatus(status);
  const message = typeof google?.message === 'string' ? google.message : `Vertex AI answered with HTTP ${status}.`;
  return { status: statusForErrorType(type), type, message, retryAfter, throttled: type === 'rate_limit_error', providerShaped: false };
}
