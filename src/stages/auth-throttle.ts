// Throttles failed authentications per client address. While an address is over its budget, only a
// key already known to this process (a memory lookup, never the store) gets through; anything else is
// answered 429 before the key store is asked, so guessing cannot drain its shared lookup budget, and
// valid clients that share the address (NAT, a load balancer not declared as trusted) keep working.
import { GatewayError } from '../errors/codes.js';
import type { Stage } from '../pipeline/compose.js';
import { clientAddress } from '../ratelimit/client-address.js';
import { retryAfterSeconds } from '../ratelimit/headers.js';
import { resilienceOf } from '../resilience/services.js';
import type { Runtime } from '../runtime.js';
import { credentialOf } from './auth.js';

export function authThrottleStage(rt: Runtime): Stage | null {
  const throttle = resilienceOf(rt).authThrottle;
  if (throttle === null) return null;
  const { metrics, keys } = rt;
  const trusted = new Set(rt.config.rateLimits.trustedProxies);
  return async (ctx, next) => {
    const { req } = ctx;
    // Nothing failed recently anywhere: no address to work out.
    const address = throttle.size === 0 ? undefined : clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);
    const wait = address === undefined ? 0 : throttle.blockedFor(address);
    if (wait > 0) {
      // The messages surface's routes also take x-api-key (the same rule as the auth stage).
      const raw = credentialOf(req.headers.authorization, ctx.route.errorFormat === 'messages' ? req.headers['x-api-key'] : undefined);
      if (!keys.authenticate(raw).ok) {
        metrics.authFailure('throttled');
        metrics.rateLimited(ctx.route.surface, 'auth');
        throw new GatewayError('rate_limited', 'Too many failed authentications from this address; retry later.', {
          headers: { 'retry-after': retryAfterSeconds(wait) },
        });
      }
    }
    try {
      await next(ctx);
    } catch (err) {
      if (ctx.principal === null && err instanceof GatewayError && err.code === 'invalid_api_key') {
        throttle.failed(address ?? clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted));
      }
      throw err;
    }
  };
}
