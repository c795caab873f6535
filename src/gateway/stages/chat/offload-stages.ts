// Chat stages that hand a large body to the translation pool. The parse step leaves the body's small
// fields in ctx.json, so limits, model resolution and rate limits run on the main thread as always;
// the translate step then has the worker build the provider body. Small bodies take the inline stages.
import type { RequestContext } from '../../context.js';
import { GatewayError } from '../../../dialects/errors/codes.js';
import type { Next, Stage } from '../../compose.js';
import type { Runtime } from '../../runtime.js';
import { messagesRequest } from '../../../dialects/translators/openai-shared/request-json.js';
import { applyTranslation, clientRequestOf, prepareRouting, refusal, strictRequested, type TranslateOptions } from '../translate-request.js';
import type { TranslatePool } from '../../offload/pool.js';
import { headAsBody } from '../../offload/tasks.js';

/**
 * The body when it goes to the pool (null: the inline stage takes the request): decided by its size, the same for both steps (the body
 * does not change between them), so the translate step knows ctx.json holds only the head. Decided
 * synchronously: a small body goes straight to the inline stage, without an async frame around it.
 */
function pooledBody(ctx: RequestContext, pool: TranslatePool): Buffer | null {
  return ctx.body !== null && ctx.body.length >= pool.minBytes ? ctx.body : null;
}

export function offloadParseStage(rt: Runtime, pool: TranslatePool, inline: Stage): Stage {
  const maxDepth = rt.config.limits.jsonDepth;
  const offload = async (ctx: RequestContext, body: Buffer, next: Next): Promise<void> => {
    const result = await pool.head(body, maxDepth);
    if (!result.ok) throw new GatewayError('invalid_request', result.message, { param: result.param });
    ctx.json = headAsBody(result);
    return next(ctx);
  };
  return (ctx, next) => {
    const body = pooledBody(ctx, pool);
    return body === null ? inline(ctx, next) : offload(ctx, body, next);
  };
}

export function offloadTranslateStage(rt: Runtime, pool: TranslatePool, inline: Stage, options: TranslateOptions): Stage {
  const offload = async (ctx: RequestContext, body: Buffer, next: Next): Promise<void> => {
    const model = ctx.model;
    if (model === null) throw new Error('offloadTranslateStage: no model was resolved');
    const result = await pool.translate(body, model, strictRequested(ctx));
    if (!result.ok) throw refusal(result);
    applyTranslation(ctx, options.operation, messagesRequest(Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength), model.id, result));
    // ctx.json holds only the body's head: a fallback (rare) parses the whole body, on the main thread.
    prepareRouting(ctx, rt.translators, () => clientRequestOf(ctx, JSON.parse(body.toString('utf8')) as Record<string, unknown>), options);
    return next(ctx);
  };
  return (ctx, next) => {
    const body = pooledBody(ctx, pool);
    return body === null ? inline(ctx, next) : offload(ctx, body, next);
  };
}
