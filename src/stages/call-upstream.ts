// Sends the prepared request upstream. Failures before the response headers become the error
// table's 502/504; the provider refusing the gateway's own credential becomes a 502, never a 401.
import { GatewayError } from '../errors/codes.js';
import type { Stage } from '../pipeline/compose.js';
import type { Runtime } from '../runtime.js';
import { classifyUpstreamFailure, upstreamFailureError } from '../upstream/client.js';

export function callUpstreamStage(rt: Runtime): Stage {
  const { upstream, metrics, logger } = rt;
  return async (ctx, next) => {
    const request = ctx.upstreamRequest;
    if (request === null) throw new Error('callUpstreamStage: no upstream request was prepared');
    let response;
    try {
      response = await upstream.request({ ...request, signal: ctx.abort.signal });
    } catch (err) {
      const kind = classifyUpstreamFailure(err);
      if (kind === 'cancelled') {
        ctx.outcome = 'client_cancelled';
        return;
      }
      metrics.upstreamError(kind);
      logger.debug({ reqId: ctx.id, kind, code: (err as { code?: string }).code }, 'upstream call failed');
      ctx.outcome = 'upstream_error';
      throw upstreamFailureError(kind);
    }
    ctx.upstreamHeadersAt = performance.now();
    const status = response.statusCode;
    if (status === 401 || status === 403) {
      response.body.resume();
      metrics.upstreamError('status');
      logger.error({ reqId: ctx.id, upstreamStatus: status }, 'the upstream provider refused the gateway credential');
      ctx.outcome = 'upstream_error';
      throw new GatewayError('upstream_auth_failed', 'The gateway could not authenticate with the upstream provider.');
    }
    if (status >= 500) metrics.upstreamError('status');
    if (status >= 400) ctx.outcome = status >= 500 || status === 429 ? 'upstream_error' : 'client_error';
    ctx.upstreamResponse = response;
    try {
      await next();
    } finally {
      // Whatever the respond stage did, the upstream body must not stay open.
      if (!response.body.destroyed && !response.body.readableEnded) response.body.destroy();
    }
  };
}
