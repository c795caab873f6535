// Writes a generated reply: an SSE stream paced by tokensPerSecond with backpressure, or one JSON
// body; and the faults that strike after the headers (reset, stall, error event, broken data).
import type { ServerResponse } from 'node:http';
import type { SseFrame } from '../reply/render.js';
import { frame } from '../reply/render.js';
import type { LateFault } from './faults.js';
import { baseHeaders, defaultErrorMessage, sendError, statusForErrorType, STREAM_HEADERS } from './respond.js';
import type { ResponseScope } from './scope.js';

export interface WriteContext {
  res: ServerResponse;
  scope: ResponseScope;
  requestId: string;
  tokensPerSecond: number;
  fault: LateFault | null;
}

/** A TCP reset where the platform offers it, so the client sees ECONNRESET rather than a clean end. */
export function resetConnection(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/** Resolves once the headers and everything written so far have left the process. */
function flushed(res: ServerResponse): Promise<void> {
  const socket = res.socket;
  if (!socket || socket.destroyed) return Promise.resolve();
  res.flushHeaders();
  // Writes to an HTTP response are corked until the next tick; an empty write completes after them.
  return new Promise((resolve) => socket.write('', () => setImmediate(resolve)));
}

/** Resets the connection after what was written so far has been delivered. */
async function resetAfterFlush(res: ServerResponse): Promise<void> {
  await flushed(res);
  resetConnection(res);
}

const BROKEN_FRAME = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n';

async function strikeMidStream(ctx: WriteContext, fault: LateFault): Promise<void> {
  switch (fault.kind) {
    case 'reset-mid-stream':
      return resetAfterFlush(ctx.res);
    case 'stall-mid-stream':
      await ctx.scope.untilClosed();
      return;
    case 'error-event': {
      const type = fault.errorType ?? 'overloaded_error';
      const message = fault.message ?? defaultErrorMessage(type);
      ctx.res.end(frame({ type: 'error', error: { type, message } }).text);
      return;
    }
    case 'malformed-sse':
      ctx.res.end(BROKEN_FRAME);
      return;
  }
}

function tokenDelay(ctx: WriteContext, tokens: number): number {
  return ctx.tokensPerSecond > 0 ? (tokens * 1000) / ctx.tokensPerSecond : 0;
}

/** Unpaced streams are written in batches of whole events up to this size: one chunk, one syscall. */
const BATCH_BYTES = 16 * 1024;

export async function writeStream(ctx: WriteContext, frames: readonly SseFrame[]): Promise<void> {
  const { res, scope, fault } = ctx;
  res.writeHead(200, { ...baseHeaders(ctx.requestId), ...STREAM_HEADERS });
  const paced = ctx.tokensPerSecond > 0;
  let batch = '';
  for (let i = 0; i < frames.length; i++) {
    if (fault !== null && i === fault.afterEvents) break;
    batch += frames[i].text;
    // Paced, every event goes out on its own; unpaced, whole events are gathered up to BATCH_BYTES.
    if (!paced && batch.length < BATCH_BYTES && i < frames.length - 1) continue;
    if (scope.closed) return;
    const ok = res.write(batch);
    batch = '';
    if (!ok && !(await scope.drained())) return;
    const delay = tokenDelay(ctx, frames[i].tokens);
    if (delay > 0 && !(await scope.sleep(delay))) return;
  }
  if (batch !== '' && !scope.closed) res.write(batch);
  if (fault !== null) return strikeMidStream(ctx, fault);
  res.end();
}

/** A non-streamed reply takes as long as its tokens would have taken to stream. */
export async function writeJson(ctx: WriteContext, body: string, outputTokens: number): Promise<void> {
  const { res, scope, fault } = ctx;
  if (!(await scope.sleep(tokenDelay(ctx, outputTokens)))) return;
  if (fault?.kind === 'error-event') {
    const type = fault.errorType ?? 'overloaded_error';
    sendError(res, ctx.requestId, { status: statusForErrorType(type), type, message: fault.message ?? defaultErrorMessage(type) });
    return;
  }
  const half = body.slice(0, Math.floor(body.length / 2));
  if (fault?.kind === 'malformed-sse') {
    res.writeHead(200, { ...baseHeaders(ctx.requestId), 'content-type': 'application/json' });
    res.end(half);
    return;
  }
  res.writeHead(200, { ...baseHeaders(ctx.requestId), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  if (fault === null) {
    res.end(body);
    return;
  }
  // reset or stall part-way through the body
  res.write(half);
  if (fault.kind === 'reset-mid-stream') await resetAfterFlush(res);
  else await scope.untilClosed();
}
