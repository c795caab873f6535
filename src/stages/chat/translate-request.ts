// Translates a chat-completions request into a provider request. Every change made to what the
// client asked for is reported in x-gateway-translation-warnings; x-gateway-strict turns them into 400s.
import type { RequestContext } from '../../context.js';
import { GatewayError } from '../../errors/codes.js';
import type { Stage } from '../../pipeline/compose.js';
import { ANTHROPIC } from '../../providers/anthropic/provider.js';
import type { Runtime } from '../../runtime.js';
import { translateChatRequest } from '../../translate/chat-to-messages/request.js';
import { stringifyMessagesRequest } from '../../translate/chat-to-messages/request-json.js';
import type { TranslationWarning } from '../../translate/chat-to-messages/request.js';
import { builtRequestHeaders } from '../../upstream/headers.js';

export const WARNINGS_HEADER = 'x-gateway-translation-warnings';

export function translateRequestStage(rt: Runtime): Stage {
  const key = rt.upstreamKey;
  return (ctx, next) => {
    const result = translateChatRequest(ctx.json, ctx.model!, { strict: strictRequested(ctx) });
    applyTranslation(ctx, key, result.ok ? { ...result, body: stringifyMessagesRequest(result.request) } : result);
    return next(ctx);
  };
}

/** A translation with the provider body already serialised (inline, or by a translation worker). */
export type PreparedTranslation =
  | { ok: true; body: string | Buffer; warnings: TranslationWarning[]; stream: boolean; includeUsage: boolean }
  | { ok: false; message: string; param: string | null };

export function strictRequested(ctx: RequestContext): boolean {
  return ctx.req.headers['x-gateway-strict'] === 'true';
}

export function applyTranslation(ctx: RequestContext, upstreamKey: string | null, t: PreparedTranslation): void {
  if (!t.ok) throw new GatewayError('invalid_request', t.message, { param: t.param });
  ctx.warnings = t.warnings;
  ctx.stream = t.stream;
  ctx.includeUsage = t.includeUsage;
  if (t.warnings.length > 0) ctx.headers[WARNINGS_HEADER] = warningsHeaderValue(t.warnings);
  ctx.upstreamRequest = {
    method: 'POST',
    path: ANTHROPIC.messagesPath,
    headers: builtRequestHeaders(ctx.req.headers, upstreamKey),
    body: t.body,
  };
}

/** Details are header-safe where the warning is made (safeDetail), so they are listed as they are. */
export function warningsHeaderValue(warnings: readonly TranslationWarning[]): string {
  return warnings.map((w) => `${w.kind}:${w.detail}`).join(', ');
}
