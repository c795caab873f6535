// Sends the translated request to the model's routes through the router (src/policy/routing/:
// failover between routes, retries, fallback models, circuit breakers, cool-downs). Failures before
// the response headers become the error table's 502/504, every route's circuit open a 503, every
// route cooling down a 429 with the earliest retry-after; a provider refusing the gateway's own
// credential becomes a 502, never a 401.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Stage } from '../compose.js';
import { retryAfterSeconds } from '../../policy/ratelimit/headers.js';
import { upstreamBodyFailure } from '../../policy/resilience/body-failure.js';
import type { Runtime } from '../runtime.js';
import { classifyUpstreamFailure } from '../../upstream/client.js';
import { upstreamFailureError } from '../../policy/resilience/upstream-failure.js';
import { traceErrorTypeOf } from '../../policy/resilience/trace-error.js';
import { ExchangeCancelled } from '../../upstream/exchange.js';

export const SERVED_MODEL_HEADER = 'x-gateway-model';

export function callUpstreamStage(rt: Runtime, options: { allowFallback: boolean }): Stage {
  const { metrics, logger, router, wallClock } = rt;
  return async (ctx, next) => {
    const model = ctx.model;
    const callFor = ctx.callFor;
    if (model === null || callFor === null) throw new Error('callUpstreamStage: no request was translated');
    const result = await router.call({
      model,
      principal: ctx.principal,
      seed: ctx.seed,
      session: ctx.session,
      cancellation: ctx.cancellation,
      callFor,
      fallbacks: options.allowFallback,
      trace: ctx.trace,
    });
    if (result.kind === 'cancelled') {
      ctx.outcome = 'client_cancelled';
      return;
    }
    if (result.kind === 'circuit_open') {
      ctx.outcome = 'upstream_error';
      throw new GatewayError('upstream_unavailable', `Every recent call for the model "${model.id}" failed; the gateway is not sending it requests for now.`, {
        headers: { 'retry-after': retryAfterSeconds(result.retryAfterMs) },
      });
    }
    if (result.kind === 'throttled') {
      ctx.outcome = 'upstream_error';
      metrics.rateLimited(ctx.route.surface, 'upstream');
      throw new GatewayError('rate_limited', `Every upstream route of the model "${model.id}" is at its rate limit; retry after the time in the retry-after header.`, {
        headers: { 'retry-after': retryAfterSeconds(result.retryAt - wallClock()) },
      });
    }
    if (result.kind === 'failed') {
      logger.debug({ reqId: ctx.id, kind: result.failure, route: result.route.name }, 'upstream call failed');
      ctx.outcome = 'upstream_error';
      ctx.errorType = result.failure === 'credential' ? 'connection_error' : traceErrorTypeOf(result.failure);
      if (result.failure === 'credential') throw upstreamAuthFailed();
      throw upstreamFailureError(result.failure);
    }
    const response = result.response;
    ctx.upstreamSentAt = response.dispatchedAt;
    ctx.upstreamHeadersAt = response.headersAt;
    ctx.servedRoute = result.route;
    // servedModel is set only when a fallback answered, so the chat body keeps the client's alias otherwise.
    if (result.model !== model) ctx.servedModel = result.model;
    ctx.headers[SERVED_MODEL_HEADER] = result.model.id;
    const status = response.statusCode;
    // The upstream's own error status names the failure, whatever the client is answered.
    if (status >= 400) ctx.errorType = String(status);
    if (status === 401 || status === 403) {
      if (response.kind === 'stream') response.body.cancel(new ExchangeCancelled());
      metrics.upstreamError('status');
      logger.error({ reqId: ctx.id, upstreamStatus: status, route: result.route.name }, 'the upstream provider refused the gateway credential');
      ctx.outcome = 'upstream_error';
      throw upstreamAuthFailed();
    }
    if (status === 429) ctx.retryAt = result.retryAt;
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

function upstreamAuthFailed(): GatewayError {
  return new GatewayError('upstream_auth_failed', 'The gateway could not authenticate with the upstream provider.');
}
