// Answers a chat-completions request from the provider's response: a chat.completion object, a
// re-framed chunk stream (SSE parse → event translation → SSE frames, pushed per upstream chunk through a Reframer), or the
// provider's error in the chat error shape with the same status.
import type { RequestContext } from '../../context.js';
import { endJson } from '../../json-response.js';
import { streamFailureOf } from '../../errors/stream-frames.js';
import type { Stage } from '../../pipeline/compose.js';
import type { Runtime } from '../../runtime.js';
import { Reframer } from '../../sse/reframer.js';
import { relayAnswer } from '../../stream/relay-answer.js';
import type { AnswerStream } from '../../upstream/answer-stream.js';
import { collectAnswer } from '../../upstream/answer-stream.js';
import { upstreamCredentialScrub } from '../../upstream/credential-scrub.js';
import { translateUpstreamError } from '../../translate/chat-to-messages/error.js';
import { stringifyCompletion } from '../../translate/chat-to-messages/completion-json.js';
import { fastCompletion } from '../../translate/chat-to-messages/fast-completion.js';
import { translateMessageToCompletion } from '../../translate/chat-to-messages/response.js';
import { ChatStreamTranslator } from '../../translate/chat-to-messages/stream.js';
import type { Message } from '../../wire/anthropic.js';
import { asOpenStream, keepUsage, wholeBody } from '../respond-common.js';
import { WARNINGS_HEADER, warningsHeaderValue } from './translate-request.js';

export function chatRespondStage(rt: Runtime): Stage {
  const { metrics } = rt;
  const maxBytes = rt.upstream.maxBufferedBytes;
  const scrub = upstreamCredentialScrub(rt.upstreamKey);
  return async (ctx) => {
    const upstream = ctx.upstreamResponse;
    if (upstream === null) return;
    const { headers } = ctx;
    if (upstream.statusCode >= 300) {
      const translated = translateUpstreamError(upstream.statusCode, scrub(await wholeBody(upstream, maxBytes)));
      // The provider's advice on when to retry; a success carries none (its headers are not parsed).
      const retryAfter = upstream.header('retry-after');
      if (retryAfter !== undefined) headers['retry-after'] = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
      return endJson(ctx.res, translated.status, JSON.stringify(translated.body), headers);
    }
    if (ctx.stream && upstream.kind === 'stream') {
      const stream = upstream.body;
      return asOpenStream(metrics, ctx, () => relayTranslatedStream(ctx, stream));
    }
    // A JSON answer is at hand: awaiting it anyway would cost a microtask turn.
    const body = upstream.kind === 'buffered' ? upstream.body : await collectAnswer(upstream.body, maxBytes);
    const answer = body.toString('utf8');
    const created = Math.floor(Date.now() / 1000);
    const model = ctx.servedModel?.id ?? ctx.requestedModel ?? ctx.model!.id;
    const fast = fastCompletion(answer, created, model);
    if (fast !== null) {
      keepUsage(ctx, fast.usage);
      return endJson(ctx.res, 200, fast.body, headers);
    }
    const { completion, warnings, usage } = translateMessageToCompletion(JSON.parse(answer) as Message, { created, model });
    keepUsage(ctx, usage);
    addWarnings(ctx, warnings);
    endJson(ctx.res, 200, stringifyCompletion(completion), headers);
  };
}

async function relayTranslatedStream(ctx: RequestContext, stream: AnswerStream): Promise<void> {
  const { res, headers } = ctx;
  const translator = new ChatStreamTranslator({
    created: Math.floor(Date.now() / 1000),
    model: ctx.servedModel?.id ?? ctx.requestedModel ?? ctx.model!.id,
    includeUsage: ctx.includeUsage,
  });
  const reframer = new Reframer(translator);
  headers['content-type'] = 'text/event-stream; charset=utf-8';
  headers['cache-control'] = 'no-cache';
  res.writeHead(200, headers);
  const result = await relayAnswer(res, stream, ctx.cancellation, {
    chunk(chunk) {
      const text = reframer.push(chunk);
      // The translator knows when content first went out; a ping or the role chunk is not a token.
      if (ctx.firstTokenAt === null && translator.firstTokenSeen) ctx.firstTokenAt = performance.now();
      return text;
    },
    end: () => reframer.end(),
  });
  keepUsage(ctx, translator.usage);
  addWarnings(ctx, translator.warnings);
  if (result.end === 'client_gone') {
    ctx.outcome = 'client_cancelled';
    return;
  }
  if (result.end === 'source_failed') {
    const failure = streamFailureOf(result.error);
    const frames = reframer.close(translator.fail(failure.chatType, failure.chatCode, failure.message));
    if (frames !== '') res.write(frames);
  }
  if (!translator.finished) ctx.outcome = 'upstream_error';
  res.end();
}

function addWarnings(ctx: RequestContext, warnings: RequestContext['warnings']): void {
  if (warnings.length === 0) return;
  ctx.warnings = ctx.warnings.concat(warnings);
  if (!ctx.res.headersSent) ctx.headers[WARNINGS_HEADER] = warningsHeaderValue(ctx.warnings);
}

