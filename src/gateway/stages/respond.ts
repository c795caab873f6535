// Answers the client from the provider's response through the translator of the pair (the surface's
// dialect, the dialect of the provider that answered; src/dialects/translators/): a stream is relayed
// chunk by chunk as the provider sends it (through the provider's decoder when its streams have a
// framing of their own), anything else is read whole and answered at once. Usage and translation
// warnings go to the context for metering. A stream that breaks off with the provider's throttle or
// overload error cools its route down (the router's streamBroke).
import { parsedBody, type RequestContext } from '../context.js';
import { cancelledUsage } from '../../metering/cancelled-usage.js';
import { inputEstimate } from '../../policy/budgets/budget-rules.js';
import type { ClientDialect, ResponseMeta, StreamTranslation } from '../../dialects/translators/translator.js';
import type { StreamDecoder } from '../../providers/provider.js';
import { retryAfterSeconds } from '../../policy/ratelimit/headers.js';
import type { TokenUsage } from '../../metering/token-usage.js';
import type { AnswerStream } from '../../upstream/answer-stream.js';
import { collectAnswer } from '../../upstream/answer-stream.js';
import { classifyUpstreamFailure } from '../../upstream/client.js';
import type { Stage } from '../compose.js';
import { relayAnswer } from '../relay/relay-answer.js';
import type { Runtime } from '../runtime.js';
import { addWarnings } from './translate-request.js';

export function respondStage(rt: Runtime, dialect: ClientDialect): Stage {
  const { metrics, translators, wallClock, router, logger } = rt;
  return async (ctx) => {
    const upstream = ctx.upstreamResponse;
    const served = ctx.servedRoute;
    if (upstream === null || served === null) return;
    const provider = served.provider;
    const translator = translators.get(dialect, provider.dialect);
    const { headers } = ctx;
    const status = upstream.statusCode;
    if (upstream.kind === 'stream' && status < 300 && translator.streams(status, ctx.stream)) {
      const translation = translator.stream(responseMeta(ctx), upstream, headers);
      const body = upstream.body;
      metrics.streamOpened(ctx.route.surface);
      try {
        await relayStream(ctx, body, translation, provider.streamDecoder());
      } finally {
        metrics.streamClosed(ctx.route.surface);
      }
      // Too late to fail over; a throttle or an overload still steers the next requests elsewhere.
      const broke = translation.providerError;
      const coolDown = broke === null ? null : router.streamBroke(served, broke);
      if (coolDown !== null) logger.warn({ reqId: ctx.id, route: served.name, errorType: broke, coolDownMs: coolDown.until - wallClock() }, 'a stream broke off with a throttle or overload: the route cools down');
      return;
    }
    // A JSON answer is at hand: awaiting it anyway would cost a microtask turn.
    const body = upstream.kind === 'buffered' ? upstream.body : await collectAnswer(upstream.body, provider.client.maxBufferedBytes);
    const answer =
      status < 300
        ? translator.success(status, body, responseMeta(ctx), upstream, headers)
        : translator.error(status, provider.scrubCredential(body), upstream, headers);
    // A 429 goes back only when every route was out of headroom: the client waits for the first to be free.
    if (ctx.retryAt !== null) {
      headers['retry-after'] = retryAfterSeconds(ctx.retryAt - wallClock());
      delete headers['retry-after-ms'];
    }
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

async function relayStream(ctx: RequestContext, stream: AnswerStream, translation: StreamTranslation, decoder: StreamDecoder | null): Promise<void> {
  const { res } = ctx;
  res.writeHead(200, ctx.headers);
  const chunk = (bytes: Buffer, earlierSent: boolean): string | Buffer => {
    const out = translation.chunk(bytes, earlierSent);
    if (ctx.firstTokenAt === null && translation.firstTokenSeen) ctx.firstTokenAt = performance.now();
    return out;
  };
  const result = await relayAnswer(
    res,
    stream,
    ctx.cancellation,
    decoder === null
      ? { chunk, end: () => translation.end(), unchanged: translation.unchanged }
      : { chunk: (bytes, earlierSent) => chunk(asBuffer(decoder.push(bytes)), earlierSent), end: () => concat(chunk(asBuffer(decoder.end()), false), translation.end()) },
  );
  const tail = translation.close(result.end, result.error);
  keepUsage(ctx, translation.usage);
  addWarnings(ctx, translation.warnings);
  ctx.answer = translation.answer;
  if (result.end === 'client_gone') {
    ctx.outcome = 'client_cancelled';
    // The final usage may never have come: metered at least at what the client received (finding N3).
    const relayedTokens = translation.relayedTokens;
    if (translation.usage === null || translation.usage.output < relayedTokens) {
      const metered = cancelledUsage(translation.usage, relayedTokens, inputEstimate(parsedBody(ctx), ctx.body?.length ?? 0));
      keepUsage(ctx, metered.usage);
      ctx.usageEstimated = metered.estimated;
    }
    return;
  }
  if (tail.length > 0) res.write(tail);
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

function asBuffer(bytes: Buffer | string): Buffer {
  return typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
}

function concat(a: string | Buffer, b: string | Buffer): string | Buffer {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return Buffer.concat([asBuffer(a), asBuffer(b)]);
}
