// Answers the client from the provider's response through the route's translator (src/dialects/
// translators/): a stream is relayed chunk by chunk as the provider sends it, anything else is read
// whole and answered at once. Usage and translation warnings go to the context for metering.
import type { RequestContext } from '../context.js';
import type { ResponseMeta, StreamTranslation, Translator } from '../../dialects/translators/translator.js';
import type { TokenUsage } from '../../metering/token-usage.js';
import type { AnswerStream } from '../../upstream/answer-stream.js';
import { collectAnswer } from '../../upstream/answer-stream.js';
import { classifyUpstreamFailure } from '../../upstream/client.js';
import type { Stage } from '../compose.js';
import { relayAnswer } from '../relay/relay-answer.js';
import type { Runtime } from '../runtime.js';
import { addWarnings } from './translate-request.js';

export function respondStage(rt: Runtime, translator: Translator): Stage {
  const { metrics, providers } = rt;
  return async (ctx) => {
    const upstream = ctx.upstreamResponse;
    if (upstream === null) return;
    const { headers } = ctx;
    const status = upstream.statusCode;
    if (upstream.kind === 'stream' && status < 300 && translator.streams(status, ctx.stream)) {
      const translation = translator.stream(responseMeta(ctx), upstream, headers);
      const body = upstream.body;
      metrics.streamOpened(ctx.route.surface);
      try {
        await relayStream(ctx, body, translation);
      } finally {
        metrics.streamClosed(ctx.route.surface);
      }
      return;
    }
    // The provider that answered: the fallback's when one served the request.
    const provider = providers.of(ctx.servedModel ?? ctx.model);
    // A JSON answer is at hand: awaiting it anyway would cost a microtask turn.
    const body = upstream.kind === 'buffered' ? upstream.body : await collectAnswer(upstream.body, provider.client.maxBufferedBytes);
    const answer =
      status < 300
        ? translator.success(status, body, responseMeta(ctx), upstream, headers)
        : translator.error(status, provider.scrubCredential(body), upstream, headers);
    keepUsage(ctx, answer.usage);
    addWarnings(ctx, answer.warnings);
    // Read from the provider's own bytes, and only for a span that is kept.
    if (ctx.trace.recording && status < 300) ctx.answer = translator.answer(body);
    ctx.res.writeHead(answer.status, headers);
    ctx.res.end(answer.body);
  };
}

/** The model name an answer carries: the fallback that served it, else the name the client used. */
function responseMeta(ctx: RequestContext): ResponseMeta {
  return { model: ctx.servedModel?.id ?? ctx.requestedModel ?? ctx.model?.id ?? '', includeUsage: ctx.includeUsage, clientBody: ctx.json };
}

async function relayStream(ctx: RequestContext, stream: AnswerStream, translation: StreamTranslation): Promise<void> {
  const { res } = ctx;
  res.writeHead(200, ctx.headers);
  const result = await relayAnswer(res, stream, ctx.cancellation, {
    chunk(chunk) {
      const out = translation.chunk(chunk);
      if (ctx.firstTokenAt === null && translation.firstTokenSeen) ctx.firstTokenAt = performance.now();
      return out;
    },
    end: () => translation.end(),
  });
  const tail = translation.close(result.end, result.error);
  keepUsage(ctx, translation.usage);
  addWarnings(ctx, translation.warnings);
  ctx.answer = translation.answer;
  if (result.end === 'client_gone') {
    ctx.outcome = 'client_cancelled';
    return;
  }
  if (tail !== '') res.write(tail);
  if (!translation.complete) {
    ctx.outcome = 'upstream_error';
    // The provider went silent past the idle timeout, or its stream broke off (or carried an error event).
    ctx.errorType = result.end === 'source_failed' && classifyUpstreamFailure(result.error) === 'stalled' ? 'timeout' : 'stream_interrupted';
  }
  res.end();
}

/** Keeps the usage a response reported (null: it reported none). */
function keepUsage(ctx: RequestContext, usage: TokenUsage | null): void {
  if (usage === null) return;
  ctx.usage = usage;
  ctx.usageSeen = true;
}
