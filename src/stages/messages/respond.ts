// Returns the provider's answer unchanged: status, body and the useful headers (an error body only
// loses the gateway's upstream credential, should the provider ever echo it). Streams pass through
// byte for byte while usage is read on the side; a stream that fails after it began ends with an
// `error` event instead of a silent cut.
import type { RequestContext } from '../../context.js';
import { messagesErrorEvent, streamFailureOf, STREAM_INTERRUPTED } from '../../errors/stream-frames.js';
import type { Stage } from '../../pipeline/compose.js';
import { AnthropicStreamObserver, usageFromMessageBody } from '../../providers/anthropic/stream-usage.js';
import type { Runtime } from '../../runtime.js';
import { relayAnswer } from '../../stream/relay-answer.js';
import type { AnswerStream } from '../../upstream/answer-stream.js';
import { collectAnswer } from '../../upstream/answer-stream.js';
import { upstreamCredentialScrub } from '../../upstream/credential-scrub.js';
import { passBackHeaders } from '../../upstream/headers.js';
import { asOpenStream, keepUsage } from '../respond-common.js';

export function messagesRespondStage(rt: Runtime): Stage {
  const { metrics } = rt;
  const maxBytes = rt.upstream.maxBufferedBytes;
  const scrub = upstreamCredentialScrub(rt.upstreamKey);
  return async (ctx) => {
    const upstream = ctx.upstreamResponse;
    if (upstream === null) return;
    const { headers } = ctx;
    if (upstream.statusCode === 200 && upstream.kind === 'stream') {
      const stream = upstream.body;
      passBackHeaders(upstream, headers);
      return asOpenStream(metrics, ctx, () => relayStream(ctx, stream));
    }
    // A JSON answer is at hand: awaiting it anyway would cost a microtask turn.
    const answer = upstream.kind === 'buffered' ? upstream.body : await collectAnswer(upstream.body, maxBytes);
    const succeeded = upstream.statusCode < 300;
    const body = succeeded ? answer : scrub(answer);
    keepUsage(ctx, succeeded ? usageFromMessageBody(body) : null);
    passBackHeaders(upstream, headers);
    headers['content-length'] = body.length;
    ctx.res.writeHead(upstream.statusCode, headers);
    ctx.res.end(body);
  };
}

async function relayStream(ctx: RequestContext, stream: AnswerStream): Promise<void> {
  const { res, headers } = ctx;
  headers['cache-control'] = 'no-cache';
  res.writeHead(200, headers);
  const observer = new AnthropicStreamObserver();
  const result = await relayAnswer(res, stream, ctx.cancellation, {
    chunk(chunk) {
      observer.push(chunk);
      if (ctx.firstTokenAt === null && observer.firstTokenSeen) ctx.firstTokenAt = performance.now();
      return chunk;
    },
    end: () => '',
  });
  observer.end();
  keepUsage(ctx, observer.usage);
  if (result.end === 'client_gone') {
    ctx.outcome = 'client_cancelled';
    return;
  }
  // After message_stop the client holds a complete message: a connection that breaks later owes it nothing.
  if (!observer.sawMessageStop) {
    if (observer.errorEvent === null) {
      const failure = result.end === 'source_failed' ? streamFailureOf(result.error) : STREAM_INTERRUPTED;
      res.write(messagesErrorEvent(failure.messagesType, failure.message));
    }
    ctx.outcome = 'upstream_error';
  }
  res.end();
}
