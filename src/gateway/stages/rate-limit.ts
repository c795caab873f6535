// Per-key (and optional per-customer) limits on requests and tokens per minute. A request reserves
// its max_tokens up front; once its response is over, the reservation is settled with what the
// upstream reported. A key and customer without limits pass straight through.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { CatalogModel } from '../../catalog/model.js';
import { parsedBody, type RequestContext } from '../context.js';
import type { Principal } from '../../keys/principal.js';
import type { Next, Stage } from '../compose.js';
import { retryAfterSeconds, setLimitHeaders } from '../../policy/ratelimit/headers.js';
import { isModelSurface, reservedTokens, usedTokens, type ModelSurface } from '../../policy/ratelimit/request-limits.js';
import type { Runtime } from '../runtime.js';
import { errorMessage } from '../../lib/error-message.js';

export function rateLimitStage(rt: Runtime): Stage {
  const { limiter, metrics, logger } = rt;
  // Synchronous up to the decision that there is something to limit: an unlimited key costs no async frame.
  return (ctx, next) => {
    const principal = ctx.principal;
    const surface = ctx.route.surface;
    // responses surface (issue 32): smallest change; the per-surface dialect facts will replace this switch.
    if (principal === null || ctx.model === null || !isModelSurface(surface)) return next(ctx);
    // The customer's limits in force came with the key (stored, else the configured default).
    if (principal.rpm === null && principal.tpm === null && principal.customerLimits === null) return next(ctx);
    return limited(ctx, next, principal, surface, ctx.model);
  };

  async function limited(ctx: RequestContext, next: Next, principal: Principal, surface: ModelSurface, model: CatalogModel): Promise<void> {
    const pending = limiter.acquire({
      keyId: principal.keyId,
      keyLimits: principal,
      customerId: principal.customerId,
      customerLimits: principal.customerLimits,
      tokens: reservedTokens(parsedBody(ctx), surface, model),
    });
    const decision = pending instanceof Promise ? await pending : pending;
    setLimitHeaders(ctx.headers, surface === 'messages' ? 'messages' : 'chat', decision.status, Date.now());
    if (!decision.allowed) {
      metrics.rateLimited(surface, decision.scope);
      const who = decision.scope === 'key' ? 'this API key' : 'your organisation';
      throw new GatewayError('rate_limited', `Rate limit of ${who} exceeded; retry after the time in the retry-after header.`, {
        headers: { 'retry-after': retryAfterSeconds(decision.retryAfterMs) },
      });
    }
    try {
      await next(ctx);
    } finally {
      try {
        const settled = limiter.settle(decision.reservation, usedTokens(ctx.usage));
        if (settled instanceof Promise) await settled;
      } catch (err) {
        logger.warn({ reqId: ctx.id, err: errorMessage(err) }, 'rate-limit settle failed');
      }
    }
  }
}
