// Chat stages that hand a large body to the translation pool. The parse step leaves the body's small
// fields in ctx.json, so limits, model resolution and rate limits run on the main thread as always;
// the translate step then has the worker build the provider body. Small bodies take the inline stages.
import type { RequestContext } from '../context.js';
import { GatewayError } from '../errors/codes.js';
import type { Stage } from '../pipeline/compose.js';
import type { Runtime } from '../runtime.js';
import { applyTranslation, refusal, strictRequested } from '../stages/chat/translate-request.js';
import type { TranslatePool } from './pool.js';
import { headAsBody } from './tasks.js';

/**
 * Whether a request's body goes to the pool: decided by its size, the same for both steps (the body
 * does not change between them), so the translate step knows ctx.json holds only the head. Decided
 * synchronously: a small body goes straight to the inline stage, without an async frame around it.
 */
function goesToPool(ctx: RequestContext, pool: TranslatePool): boolean {
  return ctx.body !== null && ctx.body.length >= pool.minBytes;
}

export function offloadParseStage(rt: Runtime, pool: TranslatePool, inline: Stage): Stage {
  const maxDepth = rt.config.limits.jsonDepth;
  const offload: Stage = async (ctx, next) => {
    const result = await pool.head(ctx.body!, maxDepth);
    if (!result.ok) throw new GatewayError('invalid_request', result.message, { param: result.param });
    ctx.json = headAsBody(result);
    return next(ctx);
  };
  return (ctx, next) => (goesToPool(ctx, pool) ? offload(ctx, next) : inline(ctx, next));
}

export function offloadTranslateStage(rt: Runtime, pool: TranslatePool, inline: Stage): Stage {
  const key = rt.upstreamKey;
  const offload: Stage = async (ctx, next) => {
    const result = await pool.translate(ctx.body!, ctx.model!, strictRequested(ctx));
    if (!result.ok) throw refusal(result);
    applyTranslation(ctx, key, result, Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength));
    return next(ctx);
  };
  return (ctx, next) => (goesToPool(ctx, pool) ? offload(ctx, next) : inline(ctx, next));
}
