// An upstream failure as a trace span's `error.type` (the values docs/tracing.md lists).
import type { TraceErrorType } from '../../observability/tracing/request-trace.js';
import type { UpstreamFailureKind } from '../../upstream/client.js';

export function traceErrorTypeOf(kind: UpstreamFailureKind): TraceErrorType {
  switch (kind) {
    case 'connect':
    case 'reset':
      return 'connection_error';
    case 'timeout':
    case 'stalled':
      return 'timeout';
    case 'cut':
      return 'stream_interrupted';
    case 'cancelled':
      return 'client_cancelled';
  }
}
