// Authenticates the gateway key: `Authorization: Bearer` everywhere, `x-api-key` where the route allows it.
import { GatewayError } from '../errors/codes.js';
import type { RequestContext } from '../context.js';
import type { AuthFailure, AuthResult } from '../keys/key-cache.js';
import type { Next, Stage } from '../pipeline/compose.js';
import type { Runtime } from '../runtime.js';

const MESSAGES: Record<AuthFailure, string> = {
  missing: 'Missing API key: send your gateway key as "Authorization: Bearer <key>".',
  malformed: 'Invalid API key.',
  unknown: 'Invalid API key.',
  revoked: 'This API key has been revoked.',
  expired: 'This API key has expired.',
};

export function authStage(rt: Runtime, options: { acceptXApiKey: boolean }): Stage {
  const { keys, metrics } = rt;
  const admit = (ctx: RequestContext, next: Next, raw: string | undefined, missesBefore: number, result: AuthResult): Promise<void> => {
    if (raw !== undefined) metrics.keyCache(keys.stats.misses === missesBefore);
    if (!result.ok) {
      metrics.authFailure(result.reason);
      throw new GatewayError('invalid_api_key', MESSAGES[result.reason]);
    }
    ctx.principal = result.principal;
    return next(ctx);
  };
  return (ctx, next) => {
    const raw = credentialOf(ctx.req.headers.authorization, options.acceptXApiKey ? ctx.req.headers['x-api-key'] : undefined);
    const missesBefore = keys.stats.misses;
    const result = keys.authenticateAsync(raw);
    // A key in memory is answered without a promise; only a store lookup is awaited.
    if (result instanceof Promise) return result.then((r) => admit(ctx, next, raw, missesBefore, r));
    return admit(ctx, next, raw, missesBefore, result);
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
