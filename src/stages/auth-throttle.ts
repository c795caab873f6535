// Throttles failed authentications per client address: an address that failed too often in the last
// minute gets a 429 before its key is even looked at. Successful requests cost one map lookup.
import { GatewayError } from '../errors/codes.js';
import type { Stage } from '../pipeline/compose.js';
import { retryAfterSeconds } from '../ratelimit/headers.js';
import { resilienceOf } from '../resilience/services.js';
import type { Runtime } from '../runtime.js';

export function authThrottleStage(rt: Runtime): Stage | null {
  const throttle = resilienceOf(rt).authThrottle;
  if (throttle === null) return null;
  const { metrics } = rt;
  return async (ctx, next) => {
    const address = ctx.req.socket.remoteAddress;
    const wait = throttle.blockedFor(address);
    if (wait > 0) {
      metrics.authFailure('throttled');
      metrics.rateLimited(ctx.route.surface, 'auth');
      throw new GatewayError('rate_limited', 'Too many failed authentications from this address; retry later.', {
        headers: { 'retry-after': retryAfterSeconds(wait) },
      });
    }
    try {
      await next();
    } catch (err) {
      if (ctx.principal === null && err instanceof GatewayError && err.code === 'invalid_api_key') throttle.failed(address);
      throw err;
    }
  };
}
