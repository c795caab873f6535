// What an upstream failure means to the client and to the metrics. The upstream layer only says which
// way a call failed (UpstreamFailureKind); the error the client gets (docs/contract.md's error table)
// and the `upstream_errors_total` label are decided here.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { UpstreamErrorKind } from '../../observability/metrics.js';
import type { UpstreamFailureKind } from '../../upstream/client.js';

/** The metric label of a failure kind. */
export function upstreamErrorKindOf(kind: Exclude<UpstreamFailureKind, 'cancelled'>): UpstreamErrorKind {
  return kind === 'cut' ? 'protocol' : kind === 'stalled' ? 'timeout' : kind;
}

/** The client-facing error for a call that failed before any response headers arrived. */
export function upstreamFailureError(kind: UpstreamFailureKind): GatewayError {
  if (kind === 'timeout') return new GatewayError('upstream_timeout', 'The upstream provider did not answer in time.');
  if (kind === 'stalled') return new GatewayError('upstream_timeout', 'The upstream provider stopped sending its response.');
  if (kind === 'cut') return new GatewayError('upstream_bad_response', 'The upstream connection broke before the response was complete.');
  return new GatewayError('upstream_unreachable', 'The upstream provider could not be reached.');
}
