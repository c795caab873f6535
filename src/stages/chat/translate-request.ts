// Translates a chat-completions request into a provider request. Every change made to what the
// client asked for is reported in x-gateway-translation-warnings; x-gateway-strict turns them into 400s.
import { GatewayError } from '../../errors/codes.js';
import type { Stage } from '../../pipeline/compose.js';
import { ANTHROPIC } from '../../providers/anthropic/provider.js';
import type { Runtime } from '../../runtime.js';
import { translateChatRequest } from '../../translate/chat-to-messages/request.js';
import type { TranslationWarning } from '../../translate/chat-to-messages/request.js';
import { builtRequestHeaders } from '../../upstream/headers.js';

export const WARNINGS_HEADER = 'x-gateway-translation-warnings';

export function translateRequestStage(rt: Runtime): Stage {
  const key = rt.upstreamKey;
  return (ctx, next) => {
    const strict = ctx.req.headers['x-gateway-strict'] === 'true';
    const result = translateChatRequest(ctx.json, ctx.model!, { strict });
    if (!result.ok) throw new GatewayError('invalid_request', result.message, { param: result.param });
    ctx.warnings = result.warnings;
    ctx.stream = result.stream;
    ctx.includeUsage = result.includeUsage;
    if (result.warnings.length > 0) ctx.res.setHeader(WARNINGS_HEADER, warningsHeaderValue(result.warnings));
    ctx.upstreamRequest = {
      method: 'POST',
      path: ANTHROPIC.messagesPath,
      headers: builtRequestHeaders(ctx.req.headers, key),
      body: JSON.stringify(result.request),
    };
    return next();
  };
}

const SAFE_DETAIL = /^[A-Za-z0-9_.[\]-]{1,80}$/;

/** Details come from client field names: anything that is not a plain field path is not echoed into a header. */
export function warningsHeaderValue(warnings: readonly TranslationWarning[]): string {
  return warnings.map((w) => (SAFE_DETAIL.test(w.detail) ? `${w.kind}:${w.detail}` : w.kind)).join(', ');
}
