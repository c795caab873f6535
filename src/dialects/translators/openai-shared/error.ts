// Provider errors → the chat error shape (docs/wire.md, "Errors"; aligned with src/dialects/errors/codes.ts).
// Used for non-2xx answers before any byte was sent, and for `error` events inside a stream.

import { chatErrorBody } from '../../errors/render.js';
import type { ChatErrorBody } from '../../openai/wire.js';
import { isRecord } from '../../../lib/is-record.js';

interface ChatErrorKind {
  type: string;
  code: string | null;
}

const BY_PROVIDER_TYPE: Record<string, ChatErrorKind> = {
  invalid_request_error: { type: 'invalid_request_error', code: null },
  authentication_error: { type: 'invalid_request_error', code: 'invalid_api_key' },
  permission_error: { type: 'permission_denied', code: 'permission_denied' },
  billing_error: { type: 'insufficient_quota', code: 'insufficient_quota' },
  not_found_error: { type: 'invalid_request_error', code: 'not_found' },
  request_too_large: { type: 'invalid_request_error', code: 'request_too_large' },
  rate_limit_error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  api_error: { type: 'server_error', code: 'upstream_error' },
  timeout_error: { type: 'timeout_error', code: 'upstream_timeout' },
  overloaded_error: { type: 'server_error', code: 'server_overloaded' },
};

/** The provider's own type for a status, for bodies that are not in the provider's error shape. */
function providerTypeOfStatus(status: number): string {
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  if (status === 504) return 'timeout_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

/** The chat type/code for a provider error type; new provider types keep their name (the docs warn they appear). */
export function chatErrorKind(providerType: string, message: string): ChatErrorKind {
  const known = Object.hasOwn(BY_PROVIDER_TYPE, providerType) ? BY_PROVIDER_TYPE[providerType] : undefined;
  if (!known) return { type: providerType, code: 'upstream_error' };
  if (providerType === 'not_found_error' && /\bmodel\b/i.test(message)) return { type: known.type, code: 'model_not_found' };
  return known;
}

/** `{type, message}` of a provider error body, or null when the body is not in that shape. */
export function providerErrorOf(v: unknown): { type: string; message: string } | null {
  if (!isRecord(v) || !isRecord(v.error)) return null;
  const { type, message } = v.error;
  return typeof type === 'string' && typeof message === 'string' ? { type, message } : null;
}

export function translateUpstreamError(status: number, body: Buffer): { status: number; body: ChatErrorBody } {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    // not JSON (a proxy's HTML page, an empty body): fall back to the status
  }
  const err = providerErrorOf(parsed) ?? {
    type: providerTypeOfStatus(status),
    message: `The upstream provider answered with HTTP ${status}.`,
  };
  const kind = chatErrorKind(err.type, err.message);
  return { status, body: chatErrorBody(kind.type, kind.code, err.message, null) };
}

/** The error chunk a chat stream ends with: the chat error body, no parameter. */
export function chatStreamErrorChunk(type: string, code: string, message: string): ChatErrorBody {
  return chatErrorBody(type, code, message, null);
}
