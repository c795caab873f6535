// Authenticates the gateway key: `Authorization: Bearer` everywhere, `x-api-key` where the route allows
// it. Failed authentications are also throttled per client address here: while an address is over its
// budget, only a key already known to this process (a memory lookup, never the store) gets through;
// anything else is answered 429 before the key store is asked, so guessing cannot drain its shared
// lookup budget, and valid clients behind the same address (NAT, an undeclared load balancer) keep working.
// A key the store could not be asked about (the database unreachable) is answered 503 with retry-after,
// never 401: the key may well be valid, and a client must not drop it.
import type { IncomingMessage } from 'node:http';
import type { RequestContext } from '../context.js';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { AuthFailure, AuthResult } from '../../keys/key-cache.js';
import type { Next, Stage } from '../compose.js';
import { clientAddress } from '../../policy/ratelimit/client-address.js';
import { retryAfterSeconds } from '../../policy/ratelimit/headers.js';
import type { Runtime } from '../runtime.js';

const MESSAGES: Record<Exclude<AuthFailure, 'unavailable'>, string> = {
  missing: 'Missing API key: send your gateway key as "Authorization: Bearer <key>".',
  malformed: 'Invalid API key.',
  unknown: 'Invalid API key.',
  revoked: 'This API key has been revoked.',
  expired: 'This API key has expired.',
};

/** Seconds a client is asked to wait when its key could not be verified. */
const UNVERIFIED_RETRY_AFTER_S = '5';

export function authStage(rt: Runtime, options: { acceptXApiKey: boolean }): Stage {
  const { keys, metrics, authThrottle: throttle } = rt;
  const trusted = rt.config.rateLimits.trustedProxies;
  const addressOf = (req: IncomingMessage) => clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);

  /** `fromMemory`: the key was answered without asking the store (a cache hit). */
  const admit = (ctx: RequestContext, next: Next, raw: string | undefined, fromMemory: boolean, result: AuthResult): Promise<void> => {
    if (raw !== undefined && (result.ok || result.reason !== 'malformed')) metrics.keyCache(fromMemory);
    if (!result.ok) {
      metrics.authFailure(result.reason);
      if (result.reason === 'unavailable') {
        throw new GatewayError('overloaded', 'The gateway cannot verify this API key right now; retry shortly.', {
          headers: { 'retry-after': UNVERIFIED_RETRY_AFTER_S },
        });
      }
      throttle?.failed(addressOf(ctx.req));
      throw new GatewayError('invalid_api_key', MESSAGES[result.reason]);
    }
    ctx.principal = result.principal;
    return next(ctx);
  };

  return (ctx, next) => {
    const { req } = ctx;
    const raw = credentialOf(req.headers.authorization, options.acceptXApiKey ? req.headers['x-api-key'] : undefined);
    // Nothing failed recently anywhere: no address to work out.
    if (throttle !== null && throttle.size > 0) {
      const wait = throttle.blockedFor(addressOf(req));
      if (wait > 0 && !keys.authenticate(raw).ok) {
        metrics.authFailure('throttled');
        metrics.rateLimited(ctx.route.surface, 'auth');
        throw new GatewayError('rate_limited', 'Too many failed authentications from this address; retry later.', {
          headers: { 'retry-after': retryAfterSeconds(wait) },
        });
      }
    }
    const result = keys.authenticateAsync(raw);
    // A key in memory is answered without a promise; only a store lookup is awaited.
    if (result instanceof Promise) return result.then((r) => admit(ctx, next, raw, false, r));
    return admit(ctx, next, raw, true, result);
  };
}

/** On the messages surface x-api-key, the provider's own credential header, wins over Authorization. */
export function credentialOf(authorization: string | undefined, xApiKey: string | string[] | undefined): string | undefined {
  if (typeof xApiKey === 'string' && xApiKey !== '') return xApiKey.trim();
  if (authorization !== undefined) {
    const space = authorization.indexOf(' ');
    if (space > 0 && authorization.slice(0, space).toLowerCase() === 'bearer') return authorization.slice(space + 1).trim();
  }
  return undefined;
}
