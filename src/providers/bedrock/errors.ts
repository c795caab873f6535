// Bedrock's errors restated in the provider's error shape and status, so a client of either surface
// sees what an anthropic route would have sent. Bedrock names the error in `x-amzn-errortype`
// (`ThrottlingException`, sometimes followed by `:` and a namespace URL) over a JSON body
// `{"message": …}`; inside a stream the same errors come as `exception` messages whose
// `:exception-type` is the name in lower camel case (`throttlingException`).
//
// The choices the Bedrock runtime API's documentation leads to:
// - ThrottlingException (429) and ServiceQuotaExceededException (400, "resubmit later") are the route's
//   account out of headroom: 429 rate_limit_error, throttled, with the retry-after the answer had.
// - ServiceUnavailableException (503) and ModelNotReadyException (429, "the model is not ready, retry")
//   are capacity, not the account: the provider's overloaded 529.
// - ModelStreamErrorException and ModelErrorException (424) wrap an error the model itself raised: its
//   `originalStatusCode` decides when it is one the provider has a type for (429, 529, 503), else it is
//   the provider's internal api_error ("retry your request" is the advice, it says nothing of capacity).
// - ModelTimeoutException (408) is the provider's timeout_error (504); InternalServerException api_error.
// - ValidationException is invalid_request_error; AccessDeniedException permission_error; the
//   signature and credential refusals (UnrecognizedClientException, InvalidSignatureException, …)
//   authentication_error, as a wrong x-api-key is to the provider; ResourceNotFoundException not_found_error.
import { errorTypeForStatus, statusForErrorType } from '../../dialects/anthropic/error-status.js';
import { isRecord } from '../../lib/is-record.js';
import { firstHeader, type ProviderErrorAnswer } from '../provider-error.js';

type Kind = 'throttled' | 'overloaded' | 'wrapped' | 'timeout' | 'internal' | 'invalid' | 'denied' | 'unauthenticated' | 'not-found';

/** Each exception Bedrock's runtime documents, by its name with a lower-case first letter. */
const KINDS: ReadonlyMap<string, Kind> = new Map([
  ['throttlingException', 'throttled'],
  ['serviceQuotaExceededException', 'throttled'],
  ['serviceUnavailableException', 'overloaded'],
  ['modelNotReadyException', 'overloaded'],
  ['modelStreamErrorException', 'wrapped'],
  ['modelErrorException', 'wrapped'],
  ['modelTimeoutException', 'timeout'],
  ['internalServerException', 'internal'],
  ['validationException', 'invalid'],
  ['accessDeniedException', 'denied'],
  ['unrecognizedClientException', 'unauthenticated'],
  ['invalidSignatureException', 'unauthenticated'],
  ['incompleteSignatureException', 'unauthenticated'],
  ['missingAuthenticationTokenException', 'unauthenticated'],
  ['expiredTokenException', 'unauthenticated'],
  ['resourceNotFoundException', 'not-found'],
]);

const TYPE_OF_KIND: Readonly<Record<Exclude<Kind, 'wrapped'>, string>> = {
  throttled: 'rate_limit_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
  internal: 'api_error',
  invalid: 'invalid_request_error',
  denied: 'permission_error',
  unauthenticated: 'authentication_error',
  'not-found': 'not_found_error',
};

/** `ThrottlingException:http://…`, `com.amazon.bedrock#ThrottlingException` or `throttlingException` → `throttlingException`. */
export function exceptionName(raw: string): string {
  const name = raw.split(':')[0]!.split('#').pop()!.trim();
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** The provider's error type for a model's own status wrapped in a Bedrock exception. */
function wrappedType(originalStatusCode: unknown): string {
  if (originalStatusCode === 429) return 'rate_limit_error';
  if (originalStatusCode === 529 || originalStatusCode === 503) return 'overloaded_error';
  return 'api_error';
}

/**
 * The provider's error type for a Bedrock exception (HTTP or in a stream); null for a name Bedrock
 * does not document. `payload` is the exception's JSON body, read for a wrapped model error's status.
 */
export function errorTypeOfException(name: string, payload: unknown): string | null {
  const kind = KINDS.get(exceptionName(name));
  if (kind === undefined) return null;
  if (kind === 'wrapped') return wrappedType(isRecord(payload) ? payload.originalStatusCode : undefined);
  return TYPE_OF_KIND[kind];
}

function parseBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

/** Bedrock's message field (`message`, or `Message` in some services' answers). */
export function exceptionMessage(payload: unknown): string | null {
  if (!isRecord(payload)) return null;
  const m = payload.message ?? payload.Message;
  return typeof m === 'string' ? m : null;
}

/**
 * A Bedrock HTTP error (any status of 400 or more) as the provider's error answer. The error's name
 * comes from `x-amzn-errortype`, else the body's `__type`; with neither, the status alone decides.
 */
export function bedrockErrorAnswer(status: number, headers: Readonly<Record<string, string | string[] | undefined>>, body: Buffer): ProviderErrorAnswer {
  const payload = parseBody(body);
  const name = firstHeader(headers, 'x-amzn-errortype') ?? (isRecord(payload) && typeof payload.__type === 'string' ? payload.__type : null);
  const type = (name !== null ? errorTypeOfException(name, payload) : null) ?? errorTypeForStatus(status);
  const message = exceptionMessage(payload) ?? `Bedrock answered with HTTP ${status}.`;
  return {
    status: statusForErrorType(type),
    type,
    message,
    retryAfter: firstHeader(headers, 'retry-after'),
    throttled: type === 'rate_limit_error',
    providerShaped: false,
  };
}
