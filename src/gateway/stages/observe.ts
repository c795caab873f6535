// Wraps everything after it: in-flight gauges, the request metrics, the usage record and the one
// access-log line, all written once the response is over (for streams, after the last byte).
import type { RequestContext } from '../context.js';
import type { Outcome } from '../../observability/request-observation.js';
import type { Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';
import { requestCost } from '../../metering/cost.js';
import { isModelSurface } from '../../policy/ratelimit/request-limits.js';

export function observeStage(rt: Runtime): Stage {
  const { metrics, usage, accessLog } = rt;
  return async (ctx, next) => {
    const surface = ctx.route.surface;
    metrics.requestStarted(surface);
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
      });
      for (const w of ctx.warnings) metrics.translationWarning(w.kind);
      // responses surface (issue 32): smallest change; the per-surface dialect facts will replace this switch.
      if (ctx.principal !== null && ctx.model !== null && isModelSurface(surface)) {
        // Priced as the model that answered: a fallback's tokens cost what that model charges.
        const served = ctx.servedModel ?? ctx.model;
        const cost = requestCost(ctx.usage, served.prices);
        metrics.spent(served.id, customer, cost);
        usage.record({
          // When the request arrived (a stream crossing midnight is filed under the day it began).
          at: Math.round(Date.now() - durationMs),
          requestId: ctx.id,
          customerId: ctx.principal.customerId,
          keyId: ctx.principal.keyId,
          model: served.id,
          surface,
          inputTokens: ctx.usage.input,
          outputTokens: ctx.usage.output,
          cacheReadTokens: ctx.usage.cacheRead,
          cacheWriteTokens: ctx.usage.cacheWrite,
          costNanoUsd: cost.nanoUsd,
          status,
          durationMs: Math.round(durationMs),
          outcome,
        });
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
