// Answers a chat-completions request from the provider's response: a chat.completion object, a
// re-framed chunk stream (SSE parse → event translation → SSE serialise, as Transform streams), or the
// provider's error in the chat error shape with the same status.
import type { OutgoingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream';
import type { RequestContext } from '../../context.js';
import { chatErrorFrames, streamFailureOf } from '../../errors/stream-frames.js';
import type { Stage } from '../../pipeline/compose.js';
import type { Runtime } from '../../runtime.js';
import { ReframeStream } from '../../sse/reframe-stream.js';
import { pumpToClient } from '../../stream/pump.js';
import { translateUpstreamError } from '../../translate/chat-to-messages/error.js';
import { translateMessageToCompletion } from '../../translate/chat-to-messages/response.js';
import { ChatStreamTranslator } from '../../translate/chat-to-messages/stream.js';
import type { Message } from '../../wire/anthropic.js';
import { usageFromMessageBody } from '../../providers/anthropic/stream-usage.js';
import { asOpenStream, isEventStream, keepUsage } from '../respond-common.js';
import { WARNINGS_HEADER, warningsHeaderValue } from './translate-request.js';

export function chatRespondStage(rt: Runtime): Stage {
  const { metrics } = rt;
  return async (ctx) => {
    const upstream = ctx.upstreamResponse;
    if (upstream === null) return;
    const headers: OutgoingHttpHeaders = {};
    copyRetryAfter(upstream.headers, headers);
    if (upstream.statusCode >= 300) {
      const translated = translateUpstreamError(upstream.statusCode, Buffer.from(await upstream.body.arrayBuffer()));
      return writeJson(ctx, translated.status, headers, JSON.stringify(translated.body));
    }
    if (ctx.stream && isEventStream(upstream)) return asOpenStream(metrics, ctx, () => relayTranslatedStream(ctx, headers));
    const body = Buffer.from(await upstream.body.arrayBuffer());
    keepUsage(ctx, usageFromMessageBody(body));
    const { completion, warnings } = translateMessageToCompletion(JSON.parse(body.toString('utf8')) as Message, {
      created: Math.floor(Date.now() / 1000),
      model: ctx.servedModel ?? ctx.requestedModel ?? ctx.model!.id,
    });
    addWarnings(ctx, warnings);
    writeJson(ctx, 200, headers, JSON.stringify(completion));
  };
}

async function relayTranslatedStream(ctx: RequestContext, headers: OutgoingHttpHeaders): Promise<void> {
  const upstream = ctx.upstreamResponse!;
  const { res } = ctx;
  const translator = new ChatStreamTranslator({
    created: Math.floor(Date.now() / 1000),
    model: ctx.servedModel ?? ctx.requestedModel ?? ctx.model!.id,
    includeUsage: ctx.includeUsage,
  });
  const reframe = new ReframeStream(translator);
  const frames = pipeline(upstream.body, reframe, () => {});
  headers['content-type'] = 'text/event-stream; charset=utf-8';
  headers['cache-control'] = 'no-cache';
  res.writeHead(200, headers);
  res.flushHeaders();
  const result = await pumpToClient(res, frames, ctx.abort.signal, () => {
    // The first frame is the role chunk; any frame after it carries the first token.
    if (ctx.firstTokenAt === null && reframe.frames > 1) ctx.firstTokenAt = performance.now();
  });
  ctx.usage = translator.usage;
  ctx.usageSeen = true;
  addWarnings(ctx, translator.warnings);
  if (result.end === 'client_gone') {
    ctx.outcome = 'client_cancelled';
    return;
  }
  if (result.end === 'source_failed') {
    const failure = streamFailureOf(result.error);
    res.write(chatErrorFrames(failure.chatType, failure.chatCode, failure.message));
    ctx.outcome = 'upstream_error';
  } else if (!translator.finished) {
    ctx.outcome = 'upstream_error';
  }
  res.end();
}

function addWarnings(ctx: RequestContext, warnings: RequestContext['warnings']): void {
  if (warnings.length === 0) return;
  ctx.warnings = ctx.warnings.concat(warnings);
  if (!ctx.res.headersSent) ctx.res.setHeader(WARNINGS_HEADER, warningsHeaderValue(ctx.warnings));
}

function copyRetryAfter(from: Record<string, string | string[] | undefined>, to: OutgoingHttpHeaders): void {
  const retryAfter = from['retry-after'];
  if (retryAfter !== undefined) to['retry-after'] = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
}

function writeJson(ctx: RequestContext, status: number, headers: OutgoingHttpHeaders, body: string): void {
  headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(body);
  ctx.res.writeHead(status, headers);
  ctx.res.end(body);
}
