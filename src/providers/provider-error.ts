// A cloud provider's error answer, restated as the anthropic provider would have answered: its status,
// its error body ({"type":"error","error":{"type","message"}}), the retry-after it carried. The
// bedrock and vertex modules map their own error shapes onto this, so the gateway handles one shape.
import { messagesErrorBody } from '../dialects/errors/render.js';

export interface ProviderErrorAnswer {
  status: number;
  /** The error type of the provider's error table (`rate_limit_error`, `overloaded_error`, …). */
  type: string;
  message: string;
  /** The answer's `retry-after`, as it came, when it had one. */
  retryAfter: string | null;
  /**
   * The route said it is out of headroom (throttled, over a quota), as opposed to failing: a router
   * stops sending to it until `retryAfter`, or for its own cool-down when the answer named no time.
   */
  throttled: boolean;
  /**
   * The answer's own body is already in the provider's error shape (Vertex passes the model's own
   * errors through as the provider wrote them): it may go out unchanged.
   */
  providerShaped: boolean;
}

/** The answer's body in the provider's error shape. */
export function providerErrorBody(answer: ProviderErrorAnswer): Buffer {
  return Buffer.from(JSON.stringify(messagesErrorBody(answer.type, answer.message)), 'utf8');
}

/** The headers to answer with: the JSON content type, and retry-after when the route gave one. */
export function providerErrorHeaders(answer: ProviderErrorAnswer): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (answer.retryAfter !== null) headers['retry-after'] = answer.retryAfter;
  return headers;
}

/** One header of an answer, the first when it came several times. */
export function firstHeader(headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string | null {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
}
