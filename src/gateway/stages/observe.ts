// Wraps everything after it: in-flight gauges, the request metrics, the usage record and the one
// access-log line, all written once the response is over (for streams, after the last byte).
import type { RequestContext } from '../context.js';
import type { Outcome } from '../../observability/request-observation.js';
import type { Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';
import { servedCost } from '../served-cost.js';
import { isModelSurface } from '../../policy/ratelimit/request-limits.js';
import type { UsageRecord } from '../../metering/usage-store.js';

export function observeStage(rt: Runtime): Stage {
  const { metrics, usage, accessLog, tracing } = rt;
  return async (ctx, next) => {
    const surface = ctx.route.surface;
    metrics.requestStarted(surface);
    // A model request is a span (the client's trace continued); the others are not traced.
    if (tracing.enabled && isModelSurface(surface)) {
      ctx.trace = tracing.startRequest(ctx.req.headers, ctx.startedAt);
    }
    try {
      await next(ctx);
    } finally {
      const endedAt = performance.now();
      const status = ctx.res.statusCode;
      const outcome = outcomeOf(ctx, status);
      const model = ctx.model?.id ?? 'other';
      const customer = ctx.principal?.customerName ?? 'none';
      const durationMs = endedAt - ctx.startedAt;
      metrics.requestFinished({
        surface,
        model,
        customer,
        status,
        outcome,
        durationSec: durationMs / 1000,
        upstreamHeadersSec: ctx.upstreamHeadersAt === null ? null : (ctx.upstreamHeadersAt - ctx.startedAt) / 1000,
        ttftSec: ctx.firstTokenAt === null ? null : (ctx.firstTokenAt - ctx.startedAt) / 1000,
        usage: ctx.usage,
        streamed: ctx.stream,
        generationSec: ctx.firstTokenAt === null ? null : (endedAt - ctx.firstTokenAt) / 1000,
        traceId: ctx.trace.traceId,
      });
      if (ctx.trace.recording) endTrace(ctx, endedAt, status, outcome);
      for (const w of ctx.warnings) metrics.translationWarning(w.kind);
      // responses surface (issue 32): smallest change; the per-surface dialect facts will replace this switch.
      if (ctx.principal !== null && ctx.model !== null && isModelSurface(surface)) {
        const served = ctx.servedModel ?? ctx.model;
        // Computed once per request: the budget stage, when there is one, priced it already.
        const cost = servedCost(ctx, ctx.model);
        metrics.spent(served.id, customer, cost);
        const record: UsageRecord = {
          // When the request arrived (a stream crossing midnight is filed under the day it began).
          at: Math.round(Date.now() - durationMs),
          requestId: ctx.id,
          customerId: ctx.principal.customerId,
          keyId: ctx.principal.keyId,
          model: served.id,
          provider: ctx.servedRoute?.provider.id ?? null,
          surface,
          inputTokens: ctx.usage.input,
          outputTokens: ctx.usage.output,
          cacheReadTokens: ctx.usage.cacheRead,
          cacheWriteTokens: ctx.usage.cacheWrite,
          cacheWrite1hTokens: ctx.usage.cacheWrite1h ?? 0,
          webSearches: ctx.usage.webSearches ?? 0,
          costNanoUsd: cost.nanoUsd,
          status,
          durationMs: Math.round(durationMs),
          outcome,
        };
        // Set after the literal, not spread into it: a spread there is a generic copy per request.
        if (ctx.usageEstimated) record.estimated = true;
        usage.record(record);
      }
      accessLog.write({
        reqId: ctx.id,
        surface,
        method: ctx.req.method ?? 'GET',
        path: ctx.route.name,
        model: ctx.model?.id ?? ctx.requestedModel ?? undefined,
        customer: ctx.principal?.customerName,
        keyId: ctx.principal?.keyId,
        status,
        outcome,
        stream: ctx.stream,
        durationMs,
        tokens: ctx.usageSeen ? ctx.usage : undefined,
        upstreamSentMs: ctx.upstreamSentAt === null ? null : ctx.upstreamSentAt - ctx.startedAt,
        upstreamMs: ctx.upstreamHeadersAt === null ? null : ctx.upstreamHeadersAt - ctx.startedAt,
      });
    }
  };
}

function outcomeOf(ctx: RequestContext, status: number): Outcome {
  if (ctx.cancellation.cancelled) return 'client_cancelled';
  if (ctx.outcome !== null) return ctx.outcome;
  if (status >= 500) return 'upstream_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}

/** The server span's closing facts: what was asked, what answered, what it cost, and how it failed. */
function endTrace(ctx: RequestContext, endedAt: number, status: number, outcome: Outcome): void {
  const served = ctx.servedModel ?? ctx.model;
  const provider = ctx.servedRoute?.provider ?? null;
  const json = ctx.json;
  const surface = ctx.route.surface;
  const maxTokens = json === null ? undefined : surface === 'chat' ? (json.max_completion_tokens ?? json.max_tokens) : surface === 'responses' ? json.max_output_tokens : json.max_tokens;
  ctx.trace.end({
    endedAt,
    surface: ctx.route.surface,
    requestModel: ctx.model?.id ?? ctx.requestedModel,
    responseModel: ctx.answer?.model ?? served?.id ?? null,
    responseId: ctx.answer?.id ?? null,
    finishReason: ctx.answer?.finishReason ?? null,
    maxTokens: typeof maxTokens === 'number' ? maxTokens : null,
    temperature: typeof json?.temperature === 'number' ? json.temperature : null,
    usage: ctx.usageSeen ? ctx.usage : null,
    status,
    errorType: errorTypeOf(ctx, status, outcome),
    customer: ctx.principal?.customerName ?? null,
    keyId: ctx.principal?.keyId ?? null,
    // The route that answered (null when no attempt got an answer through).
    route: provider?.id ?? null,
    provider: provider?.genAiProvider ?? null,
    firstTokenAt: ctx.firstTokenAt,
  });
}

/**
 * `error.type` of a failed request: the client leaving, else what the upstream stages recorded (the
 * upstream's status, a timeout, a broken connection or stream), else the gateway's own 5xx. A 4xx the
 * gateway answered itself (a bad key, a bad body, a limit) is the client's error, not the request's failure.
 */
function errorTypeOf(ctx: RequestContext, status: number, outcome: Outcome): string | null {
  if (outcome === 'client_cancelled') return 'client_cancelled';
  if (ctx.errorType !== null) return ctx.errorType;
  return status >= 500 ? String(status) : null;
}
