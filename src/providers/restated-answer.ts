// A cloud provider's answer as the provider dialect would have sent it: the same answer with some
// headers replaced (a Bedrock stream's media type becomes the SSE it is decoded into), or an error
// answer restated in the dialect's status, body and headers (provider-error.ts). The body and the
// timings stay the answer's own; a streamed body is never read here.
import type { AnswerHeaders, BufferedAnswer, UpstreamResponse } from '../upstream/exchange.js';
import type { HeaderNames } from '../lib/http/raw-headers.js';
import { providerErrorBody, providerErrorHeaders, type ProviderErrorAnswer } from './provider-error.js';

/** `answer` with the headers of `replaced` instead of its own of those names (lower-case names). */
export function withHeaders<A extends UpstreamResponse>(answer: A, replaced: Readonly<Record<string, string>>): A {
  const header = (name: string): string | string[] | undefined => (Object.hasOwn(replaced, name) ? replaced[name] : answer.header(name));
  return {
    kind: answer.kind,
    statusCode: answer.statusCode,
    body: answer.body,
    dispatchedAt: answer.dispatchedAt,
    headersAt: answer.headersAt,
    get headers(): AnswerHeaders {
      return { ...answer.headers, ...replaced };
    },
    header,
    headersOf: (names: HeaderNames) => names.names.map(header),
  } as A;
}

/**
 * An error answer restated: the dialect's status and body, its JSON content type and retry-after,
 * and the answer's own headers named in `kept` (a request id, say) when it had them.
 */
export function restatedError(answer: UpstreamResponse, error: ProviderErrorAnswer, kept: Readonly<Record<string, string>> = {}): BufferedAnswer {
  const headers: AnswerHeaders = providerErrorHeaders(error);
  for (const [from, to] of Object.entries(kept)) {
    const v = answer.header(from);
    if (v !== undefined) headers[to] = v;
  }
  return {
    kind: 'buffered',
    statusCode: error.status,
    body: providerErrorBody(error),
    dispatchedAt: answer.dispatchedAt,
    headersAt: answer.headersAt,
    headers,
    header: (name) => headers[name],
    headersOf: (names) => names.names.map((name) => headers[name]),
  };
}
