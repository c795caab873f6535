// Chat stages that hand a large body to the translation pool. The parse step leaves the body's small
// fields in ctx.json, so limits, model resolution and rate limits run on the main thread as always;
// the translate step then has the worker build the provider body. Small bodies take the inline stages.
import type { RequestContext } from '../context.js';
import { GatewayError } from '../errors/codes.js';
import type { Stage } from '../pipeline/compose.js';
import type { Runtime } from '../runtime.js';
import { applyTranslation, strictRequested } from '../stages/chat/translate-request.js';
import type { TranslatePool } from './pool.js';
import { headAsBody } from './tasks.js';

/** Requests whose body only the workers have parsed: ctx.json holds their head. */
const offloaded = new WeakSet<RequestContext>();

// The choice is made synchronously: a small body goes straight to the inline stage, without an async
// frame of this stage's own around it.
export function offloadParseStage(rt: Runtime, pool: TranslatePool, inline: Stage): Stage {
  const maxDepth = rt.config.limits.jsonDepth;
  const offload: Stage = async (ctx, next) => {
    const result = await pool.head(ctx.body!, maxDepth);
    if (!result.ok) throw new GatewayError('invalid_request', result.message);
    ctx.json = headAsBody(result);
    offloaded.add(ctx);
    return next(ctx);
  };
  return (ctx, next) => {
    const body = ctx.body;
    return body === null || body.length < pool.minBytes ? inline(ctx, next) : offload(ctx, next);
  };
}

export function offloadTranslateStage(rt: Runtime, pool: TranslatePool, inline: Stage): Stage {
  const key = rt.upstreamKey;
  const offload: Stage = async (ctx, next) => {
    const result = await pool.translate(ctx.body!, ctx.model!, strictRequested(ctx));
    applyTranslation(ctx, key, result.ok ? { ...result, body: Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength) } : result);
    return next(ctx);
  };
  return (ctx, next) => (offloaded.has(ctx) ? offload(ctx, next) : inline(ctx, next));
}
