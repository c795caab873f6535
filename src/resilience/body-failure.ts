// An upstream answer can still fail after its headers arrived: the body is cut, stalls past the idle
// timeout, or is not the JSON it claims to be. Before anything went to the client, that is the error
// table's 502/504 (interface.md), not the gateway's own 500.
import { GatewayError } from '../errors/codes.js';
import { classifyUpstreamFailure } from '../upstream/client.js';

export type BodyFailure = GatewayError | 'cancelled';

/** The client-facing meaning of an error thrown while the answer was read; null = not an upstream failure. */
export function upstreamBodyFailure(err: unknown): BodyFailure | null {
  if (err instanceof GatewayError) return null;
  if (err instanceof SyntaxError) return new GatewayError('upstream_bad_response', 'The upstream provider sent a response that is not valid JSON.');
  const code = (err as { code?: unknown } | null)?.code;
  const name = (err as { name?: unknown } | null)?.name;
  if (typeof code !== 'string' && name !== 'AbortError') return null;
  if (typeof code === 'string' && !code.startsWith('UND_ERR_') && !NETWORK_CODES.has(code) && code !== 'ABORT_ERR') return null;
  const kind = classifyUpstreamFailure(err);
  if (kind === 'cancelled') return 'cancelled';
  if (kind === 'timeout') return new GatewayError('upstream_timeout', 'The upstream provider stopped sending its response.');
  return new GatewayError('upstream_bad_response', 'The upstream connection broke before the response was complete.');
}

const NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
