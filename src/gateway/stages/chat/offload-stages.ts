// Chat stages that hand a large body to the translation pool. The parse step leaves the body's small
// fields in ctx.json, so limits, model resolution and rate limits run on the main thread as always;
// the translate step then has the worker build the provider body. Small bodies take the inline stages.
import type { RequestContext } from '../../context.js';
import { GatewayError } from '../../../dialects/errors/codes.js';
import type { Stage } from '../../compose.js';
import type { Runtime } from '../../runtime.js';
import { openaiToAnthropic } from '../../../dialects/translators/openai-to-anthropic/translator.js';
import { ANTHROPIC } from '../../../dialects/anthropic/api.js';
import { applyTranslation, clientRequestOf, readdressing, refusal, strictRequested } from '../translate-request.js';
import type { TranslatePool } from '../../offload/pool.js';
import { headAsBody } from '../../offload/tasks.js';

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
  const { providers } = rt;
  const offload: Stage = async (ctx, next) => {
    const model = ctx.model;
    const body = ctx.body;
    if (model === null || body === null) throw new Error('offloadTranslateStage: no model or body');
    const result = await pool.translate(body, model, strictRequested(ctx));
    if (!result.ok) throw refusal(result);
    const translated = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
    applyTranslation(ctx, providers.of(model), { ...result, ok: true, path: ANTHROPIC.messagesPath, body: translated, forwarded: false });
    // ctx.json holds only the body's head: a fallback (rare) parses the whole body on the main thread.
    let client: ReturnType<typeof clientRequestOf> | null = null;
    const again = (m: Parameters<ReturnType<typeof readdressing>>[0]) => {
      client ??= clientRequestOf(ctx, JSON.parse(body.toString('utf8')) as Record<string, unknown>);
      return readdressing(providers, openaiToAnthropic, client, ctx.req.headers)(m);
    };
    ctx.readdress = again;
    return next(ctx);
  };
  return (ctx, next) => (goesToPool(ctx, pool) ? offload(ctx, next) : inline(ctx, next));
}
