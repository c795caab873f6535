// An upstream answer can still fail after its headers arrived: its body is cut, stalls past the idle
// timeout, or is not the JSON it claims to be. Before anything went to the client, that is the error
// table's 502/504 (docs/contract.md), not the gateway's own 500. The upstream layer marks such failures
// (AnswerBodyError) where they happen, so nothing here guesses from error codes.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { UpstreamErrorKind } from '../../observability/metrics.js';
import { classifyUpstreamFailure } from '../../upstream/client.js';
import { upstreamErrorKindOf, upstreamFailureError } from './upstream-failure.js';
import { AnswerBodyError } from '../../upstream/answer-stream.js';

export type BodyFailure = { error: GatewayError; metric: UpstreamErrorKind } | 'cancelled';

/** The client-facing meaning of an error thrown while the answer was read; null = not an upstream failure. */
export function upstreamBodyFailure(err: unknown): BodyFailure | null {
  if (err instanceof SyntaxError) {
    return { error: new GatewayError('upstream_bad_response', 'The upstream provider sent a response that is not valid JSON.'), metric: 'protocol' };
  }
  if (!(err instanceof AnswerBodyError)) return null;
  const kind = classifyUpstreamFailure(err);
  if (kind === 'cancelled') return kind;
  return { error: upstreamFailureError(kind), metric: upstreamErrorKindOf(kind) };
}
