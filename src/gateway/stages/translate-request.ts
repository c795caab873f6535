// Turns the client's request into the provider dialect's through the surface's translator (src/dialects/
// translators/): the messages surface's bytes go as they came, a chat request is translated. Every
// change made to what the client asked for is reported in x-gateway-translation-warnings;
// x-gateway-strict turns them into 400s. A fallback model, or a route of another provider dialect,
// gets the client's request translated again when the router asks for it. The session the request
// names seeds the order of the model's routes.
import type { CatalogModel } from '../../catalog/model.js';
import { SESSION_OF } from '../../dialects/sessions.js';
import type { Translators } from '../../dialects/translators/registry.js';
import type { ClientDialect, ClientRequest, ProviderDialect, ProviderRequest } from '../../dialects/translators/translator.js';
import type { TranslationWarning } from '../../dialects/translators/warnings.js';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { DialectCall } from '../../policy/routing/router.js';
import { randomSeed, sessionSeed } from '../../policy/routing/rendezvous.js';
import { parsedBody, type RequestContext } from '../context.js';
import type { Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';

export const WARNINGS_HEADER = 'x-gateway-translation-warnings';

/** Every provider dialect the requested model is first tried in: all routes speak the Messages API today. */
const FIRST_DIALECT: ProviderDialect = 'anthropic';

export interface TranslateOptions {
  readonly dialect: ClientDialect;
  readonly operation: DialectCall['operation'];
  /** False where another model would answer a different question (count_tokens). */
  readonly allowFallback: boolean;
}

export function translateRequestStage(rt: Runtime, options: TranslateOptions): Stage {
  const translator = rt.translators.get(options.dialect, FIRST_DIALECT);
  return (ctx, next) => {
    const model = ctx.model;
    if (model === null) throw new Error('translateRequestStage: no model was resolved');
    const client = clientRequestOf(ctx, parsedBody(ctx));
    const t = translator.request(client, model, false);
    if (!t.ok) throw refusal(t);
    applyTranslation(ctx, options.operation, t);
    prepareRouting(ctx, rt.translators, client, options);
    return next(ctx);
  };
}

export function clientRequestOf(ctx: RequestContext, json: Record<string, unknown>): ClientRequest {
  return { body: ctx.body ?? Buffer.alloc(0), json, query: ctx.query, strict: strictRequested(ctx), headers: ctx.req.headers };
}

export function strictRequested(ctx: RequestContext): boolean {
  return ctx.req.headers['x-gateway-strict'] === 'true';
}

/** The 400 for a request the translation refused. */
export function refusal(t: { message: string; param: string | null; code?: 'unsupported_parameter' }): GatewayError {
  return new GatewayError(t.code ?? 'invalid_request', t.message, { param: t.param });
}

/** Takes the request translated for the requested model into the context. */
export function applyTranslation(ctx: RequestContext, operation: DialectCall['operation'], t: ProviderRequest & { ok: true }): void {
  ctx.stream = t.stream;
  ctx.includeUsage = t.includeUsage;
  if (t.warnings.length > 0) {
    ctx.warnings = t.warnings;
    ctx.headers[WARNINGS_HEADER] = warningsHeaderValue(t.warnings);
  }
  ctx.call = dialectCall(ctx, operation, t);
}

/**
 * What the router needs besides the call: how to translate the client's request again for another
 * model or provider dialect (`client()` gives the client's request, parsed when first needed), and
 * the seed of the route order.
 */
export function prepareRouting(ctx: RequestContext, translators: Translators, client: ClientRequest | (() => ClientRequest), options: TranslateOptions): void {
  const model = ctx.model!;
  const first = ctx.call!;
  let request: ClientRequest | null = typeof client === 'function' ? null : client;
  const clientRequest = () => (request ??= (client as () => ClientRequest)());
  // The router asks once per attempt; any other model or dialect is translated once (a map only
  // when a request goes beyond its first call).
  let others: Map<string, DialectCall | null> | null = null;
  ctx.callFor = (to: CatalogModel, dialect: ProviderDialect) => {
    if (to === model && dialect === FIRST_DIALECT) return first;
    if (to !== model && !options.allowFallback) return null;
    const key = `${to.id}\u0000${dialect}`;
    others ??= new Map();
    if (others.has(key)) return others.get(key)!;
    const t = translators.get(options.dialect, dialect).request(clientRequest(), to, to !== model);
    const call = t.ok ? dialectCall(ctx, options.operation, t) : null;
    others.set(key, call);
    return call;
  };
  const principal = ctx.principal;
  const session = principal === null || ctx.json === null ? null : SESSION_OF[options.dialect](ctx.json, ctx.req.headers);
  ctx.session = session !== null;
  ctx.seed = session === null ? randomSeed() : sessionSeed(principal!.keyId, session);
}

function dialectCall(ctx: RequestContext, operation: DialectCall['operation'], t: ProviderRequest & { ok: true }): DialectCall {
  return { operation, body: t.body, forwarded: t.forwarded, bodyModel: t.model, stream: t.stream, query: ctx.query, incoming: ctx.req.headers };
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
