// Turns the client's request into the provider's through the route's translator (src/dialects/
// translators/): the messages surface's bytes go as they came, a chat request is translated. Every
// change made to what the client asked for is reported in x-gateway-translation-warnings;
// x-gateway-strict turns them into 400s. A fallback model gets the client's request translated again.
import type { IncomingHttpHeaders } from 'node:http';
import type { CatalogModel } from '../../catalog/model.js';
import type { ClientRequest, ProviderRequest, Translator } from '../../dialects/translators/translator.js';
import type { TranslationWarning } from '../../dialects/translators/warnings.js';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { ReplayableRequest } from '../../policy/resilience/fallback.js';
import type { Provider, Providers } from '../../providers/provider.js';
import { parsedBody, type RequestContext } from '../context.js';
import type { Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';

export const WARNINGS_HEADER = 'x-gateway-translation-warnings';

export function translateRequestStage(rt: Runtime, translator: Translator, options: { allowFallback: boolean }): Stage {
  const { providers } = rt;
  return (ctx, next) => {
    const model = ctx.model;
    if (model === null) throw new Error('translateRequestStage: no model was resolved');
    const client = clientRequestOf(ctx, parsedBody(ctx));
    const t = translator.request(client, model, false);
    if (!t.ok) throw refusal(t);
    applyTranslation(ctx, providers.of(model), t);
    ctx.readdress = options.allowFallback ? (to) => readdressed(providers, translator, client, ctx.req.headers, to) : null;
    return next(ctx);
  };
}

export function clientRequestOf(ctx: RequestContext, json: Record<string, unknown>): ClientRequest {
  return { body: ctx.body ?? Buffer.alloc(0), json, query: ctx.query, strict: strictRequested(ctx), headers: ctx.req.headers };
}

export function strictRequested(ctx: RequestContext): boolean {
  return ctx.req.headers['x-gateway-strict'] === 'true';
}

/** The request for a fallback model: the client's request translated again, for that model. */
export function readdressed(
  providers: Providers,
  translator: Translator,
  client: ClientRequest,
  incoming: IncomingHttpHeaders,
  model: CatalogModel,
): ReplayableRequest | null {
  const t = translator.request(client, model, true);
  return t.ok ? providerCall(providers.of(model), t, incoming) : null;
}

/** The 400 for a request the translation refused. */
export function refusal(t: { message: string; param: string | null; code?: 'unsupported_parameter' }): GatewayError {
  return new GatewayError(t.code ?? 'invalid_request', t.message, { param: t.param });
}

/** Takes a translated request into the context. */
export function applyTranslation(ctx: RequestContext, provider: Provider, t: ProviderRequest & { ok: true }): void {
  ctx.stream = t.stream;
  ctx.includeUsage = t.includeUsage;
  ctx.sessionKey = t.sessionKey ?? null;
  if (t.warnings.length > 0) {
    ctx.warnings = t.warnings;
    ctx.headers[WARNINGS_HEADER] = warningsHeaderValue(t.warnings);
  }
  ctx.upstreamRequest = providerCall(provider, t, ctx.req.headers);
}

function providerCall(provider: Provider, t: ProviderRequest & { ok: true }, incoming: IncomingHttpHeaders): ReplayableRequest {
  return {
    method: 'POST',
    path: t.path,
    headers: t.forwarded ? provider.forwardedHeaders(incoming) : provider.builtHeaders(incoming),
    body: t.body,
  };
}

/** Adds warnings found while answering (the header only while it can still be sent). */
export function addWarnings(ctx: RequestContext, warnings: readonly TranslationWarning[]): void {
  if (warnings.length === 0) return;
  ctx.warnings = ctx.warnings.concat(warnings);
  if (!ctx.res.headersSent) ctx.headers[WARNINGS_HEADER] = warningsHeaderValue(ctx.warnings);
}

/** Details are header-safe where the warning is made (safeDetail), so they are listed as they are. */
export function warningsHeaderValue(warnings: readonly TranslationWarning[]): string {
  return warnings.map((w) => `${w.kind}:${w.detail}`).join(', ');
}
