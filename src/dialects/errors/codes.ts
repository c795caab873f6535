// The one error table (docs/contract.md, "Errors"): each gateway error code with its status and its
// type/code on each surface. Stages throw GatewayError(code); serializers render it per surface.

export interface ErrorSpec {
  status: number;
  /** `error.type` on the messages surface. */
  messagesType: string;
  /** `error.type` and `error.code` on the chat-completions surface. */
  chatType: string;
  chatCode: string;
}

function spec(status: number, messagesType: string, chatType: string, chatCode: string): ErrorSpec {
  return Object.freeze({ status, messagesType, chatType, chatCode });
}

export const ERRORS = Object.freeze({
  invalid_api_key: spec(401, 'authentication_error', 'invalid_request_error', 'invalid_api_key'),
  model_not_allowed: spec(403, 'permission_error', 'permission_denied', 'model_not_allowed'),
  // A model without a price asked for under a hard spend budget (docs/spend.md, "Unpriced models").
  model_not_priced: spec(403, 'permission_error', 'permission_denied', 'model_not_priced'),
  model_not_found: spec(404, 'not_found_error', 'invalid_request_error', 'model_not_found'),
  route_not_found: spec(404, 'not_found_error', 'invalid_request_error', 'not_found'),
  method_not_allowed: spec(405, 'invalid_request_error', 'invalid_request_error', 'method_not_allowed'),
  invalid_request: spec(400, 'invalid_request_error', 'invalid_request_error', 'invalid_value'),
  // A parameter the gateway does not serve at all (the Responses surface's stored state).
  unsupported_parameter: spec(400, 'invalid_request_error', 'invalid_request_error', 'unsupported_parameter'),
  unsupported_media_type: spec(415, 'invalid_request_error', 'invalid_request_error', 'unsupported_media_type'),
  request_too_large: spec(413, 'request_too_large', 'invalid_request_error', 'request_too_large'),
  rate_limited: spec(429, 'rate_limit_error', 'rate_limit_error', 'rate_limit_exceeded'),
  // A hard spend budget with no room for the request (docs/spend.md, "Budgets").
  budget_exceeded: spec(429, 'rate_limit_error', 'insufficient_quota', 'insufficient_quota'),
  upstream_unreachable: spec(502, 'api_error', 'api_error', 'upstream_error'),
  upstream_timeout: spec(504, 'api_error', 'api_error', 'upstream_error'),
  upstream_auth_failed: spec(502, 'api_error', 'api_error', 'upstream_auth_failed'),
  upstream_bad_response: spec(502, 'api_error', 'api_error', 'upstream_error'),
  overloaded: spec(503, 'overloaded_error', 'server_error', 'server_overloaded'),
  upstream_unavailable: spec(503, 'overloaded_error', 'server_error', 'upstream_unavailable'),
  internal: spec(500, 'api_error', 'server_error', 'internal_error'),
  // Dashboard and admin API (src/admin): sessions, roles, tenant isolation.
  unauthenticated: spec(401, 'authentication_error', 'invalid_request_error', 'unauthenticated'),
  forbidden: spec(403, 'permission_error', 'permission_denied', 'forbidden'),
  not_found: spec(404, 'not_found_error', 'invalid_request_error', 'not_found'),
  conflict: spec(409, 'invalid_request_error', 'invalid_request_error', 'conflict'),
});

export type ErrorCode = keyof typeof ERRORS;

/** Thrown by stages; carries no secret (messages are written for the client). */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly headers: Readonly<Record<string, string>> | null;

  constructor(code: ErrorCode, message: string, options: { param?: string | null; headers?: Record<string, string> } = {}) {
    super(message);
    this.code = code;
    this.param = options.param ?? null;
    this.headers = options.headers ?? null;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}
