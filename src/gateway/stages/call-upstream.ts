// Sends the prepared request upstream through the resilient caller (retries, fallbacks, circuit
// breaker: src/policy/resilience). Failures before the response headers become the error table's 502/504,
// an open circuit a 503; the provider refusing the gateway's own credential becomes a 502, never a 401.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Stage } from '../compose.js';
import { retryAfterSeconds } from '../../policy/ratelimit/headers.js';
import { upstreamBodyFailure } from '../../policy/resilience/body-failure.js';
import type { Runtime } from '../runtime.js';
import { classifyUpstreamFailure, upstreamFailureError } from '../../upstream/client.js';
import { traceErrorTypeOf } from '../../policy/resilience/trace-error.js';
import { ExchangeCancelled } from '../../upstream/exchange.js';

export const SERVED_MODEL_HEADER = 'x-gateway-model';

export function callUpstreamStage(rt: Runtime): Stage {
  const { metrics, logger, caller } = rt;
  return async (ctx, next) => {
    const request = ctx.upstreamRequest;
    if (request === null) throw new Error('callUpstreamStage: no upstream request was prepared');
    const result = await caller.call({
      request,
      cancellation: ctx.cancellation,
      model: ctx.model,
      readdress: ctx.readdress,
      principal: ctx.principal,
      trace: ctx.trace,
    });
    if (result.kind === 'cancelled') {
      ctx.outcome = 'client_cancelled';
      return;
    }
    if (result.kind === 'circuit_open') {
      ctx.outcome = 'upstream_error';
      const what = ctx.model === null ? 'The upstream provider is failing' : `Every recent call for the model "${ctx.model.id}" failed`;
      throw new GatewayError('upstream_unavailable', `${what}; the gateway is not sending it requests for now.`, {
        headers: { 'retry-after': retryAfterSeconds(result.retryAfterMs) },
      });
    }
    if (result.kind === 'failed') {
      logger.debug({ reqId: ctx.id, kind: result.failure }, 'upstream call failed');
      ctx.outcome = 'upstream_error';
      ctx.errorType = traceErrorTypeOf(result.failure);
      throw upstreamFailureError(result.failure);
    }
    const response = result.response;
    ctx.upstreamSentAt = response.dispatchedAt;
    ctx.upstreamHeadersAt = response.headersAt;
    if (result.model !== null) {
      // servedModel is set only when a fallback answered, so the chat body keeps the client's alias otherwise.
      if (result.model !== ctx.model) ctx.servedModel = result.model;
      ctx.headers[SERVED_MODEL_HEADER] = result.model.id;
    }
    const status = response.statusCode;
    // The upstream's own error status names the failure, whatever the client is answered.
    if (status >= 400) ctx.errorType = String(status);
    if (status === 401 || status === 403) {
      if (response.kind === 'stream') response.body.cancel(new ExchangeCancelled());
      metrics.upstreamError('status');
      logger.error({ reqId: ctx.id, upstreamStatus: status }, 'the upstream provider refused the gateway credential');
      ctx.outcome = 'upstream_error';
      throw new GatewayError('upstream_auth_failed', 'The gateway could not authenticate with the upstream provider.');
    }
    if (status >= 400) ctx.outcome = status >= 500 || status === 429 ? 'upstream_error' : 'client_error';
    ctx.upstreamResponse = response;
    try {
      await next(ctx);
    } catch (err) {
      const failure = upstreamBodyFailure(err);
      if (failure === null) throw err;
      if (failure === 'cancelled' || ctx.cancellation.cancelled) {
        ctx.outcome = 'client_cancelled';
        return;
      }
      // A body that broke off or went silent; one that is not JSON is the gateway's 502 (the status says so).
      if (!(err instanceof SyntaxError)) ctx.errorType = traceErrorTypeOf(classifyUpstreamFailure(err));
      logger.warn({ reqId: ctx.id, code: failure.error.code }, 'the upstream answer failed while it was read');
      metrics.upstreamError(failure.metric);
      ctx.outcome = 'upstream_error';
      throw failure.error;
    } finally {
      // Whatever the respond stage did, the upstream body must not stay open.
      if (response.kind === 'stream' && !response.body.finished) response.body.cancel(new ExchangeCancelled());
    }
  };
}
