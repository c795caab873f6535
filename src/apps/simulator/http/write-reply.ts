// Writes a generated reply: a stream paced by tokensPerSecond with backpressure, framed as the
// front's wire wants it (the provider's SSE, Bedrock's event stream), or one JSON body; and the
// faults that strike after the headers (reset, stall, error event, broken data).
import type { ServerResponse } from 'node:http';
import type { SseFrame } from '../reply/render.js';
import type { EarlyFault, LateFault } from './faults.js';
import type { ReplyFacts, ReplyFront, StreamWire } from './front.js';
import { defaultErrorMessage, statusForErrorType } from './respond.js';
import type { ResponseScope } from './scope.js';

export interface WriteContext {
  res: ServerResponse;
  scope: ResponseScope;
  front: ReplyFront;
  /** The reply being written; null for an answer that is not one (count_tokens). */
  facts: ReplyFacts | null;
  tokensPerSecond: number;
  /** Unpaced: whole events go out in chunks of about this size, one per turn of the event loop (SimulatorOptions.streamChunkBytes). */
  chunkBytes?: number | undefined;
  fault: LateFault | null;
}

/** A TCP reset where the platform offers it, so the client sees ECONNRESET rather than a clean end. */
export function resetConnection(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

const TRUNCATED_JSON = '{"id":"msg_01Truncated","type":"message","role":"assistant","content":[{"type":"text","text":"This body ends in the mid';

/** The faults that strike before any response byte: an error status (as the front's API fails), a reset, a hang, a cut body. */
export async function strikeEarly(fault: EarlyFault, res: ServerResponse, scope: ResponseScope, front: ReplyFront): Promise<void> {
  switch (fault.kind) {
    case 'status':
      return front.sendFault(res, fault);
    case 'reset-before-headers':
      return resetConnection(res);
    case 'hang-before-headers':
      return scope.untilClosed();
    case 'malformed-json':
      res.writeHead(200, { ...front.okHeaders(null), 'content-type': 'application/json' });
      res.end(TRUNCATED_JSON);
  }
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

async function strikeMidStream(ctx: WriteContext, wire: StreamWire, fault: LateFault): Promise<void> {
  switch (fault.kind) {
    case 'reset-mid-stream':
      return resetAfterFlush(ctx.res);
    case 'stall-mid-stream':
      await ctx.scope.untilClosed();
      return;
    case 'error-event':
      ctx.res.end(wire.error(fault.errorType ?? 'overloaded_error', fault.message));
      return;
    case 'malformed-sse':
      ctx.res.end(wire.broken());
      return;
  }
}

function tokenDelay(ctx: WriteContext, tokens: number): number {
  return ctx.tokensPerSecond > 0 ? (tokens * 1000) / ctx.tokensPerSecond : 0;
}

/** Unpaced streams are written in batches of whole events up to this size: one chunk, one syscall. */
const BATCH_BYTES = 16 * 1024;

/** Joins a batch of encoded frames (all strings, or all bytes: one wire writes a stream). */
function joined(parts: Array<string | Uint8Array>): string | Uint8Array {
  if (parts.length === 1) return parts[0]!;
  return typeof parts[0] === 'string' ? parts.join('') : Buffer.concat(parts as Uint8Array[]);
}

export async function writeStream(ctx: WriteContext, frames: readonly SseFrame[]): Promise<void> {
  const { res, scope, fault } = ctx;
  const wire = ctx.front.wire(ctx.facts);
  res.writeHead(200, { ...ctx.front.okHeaders(null), ...wire.headers });
  const paced = ctx.tokensPerSecond > 0;
  // Writes made in one turn of the event loop leave together (the socket is corked until the next tick):
  // chunks of their own need a turn each.
  const chunked = !paced && ctx.chunkBytes !== undefined;
  const batchBytes = ctx.chunkBytes ?? BATCH_BYTES;
  let batch: Array<string | Uint8Array> = [];
  let batchSize = 0;
  for (let i = 0; i < frames.length; i++) {
    if (fault !== null && i === fault.afterEvents) break;
    const encoded = wire.encode(frames[i]);
    batch.push(encoded);
    batchSize += encoded.length;
    // Paced, every event goes out on its own; unpaced, whole events are gathered up to batchBytes.
    if (!paced && batchSize < batchBytes && i < frames.length - 1) continue;
    if (scope.closed) return;
    const ok = res.write(joined(batch));
    batch = [];
    batchSize = 0;
    if (!ok && !(await scope.drained())) return;
    if (chunked) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (scope.closed) return;
    }
    const delay = tokenDelay(ctx, frames[i].tokens);
    if (delay > 0 && !(await scope.sleep(delay))) return;
  }
  if (batch.length > 0 && !scope.closed) res.write(joined(batch));
  if (fault !== null) return strikeMidStream(ctx, wire, fault);
  res.end();
}

/** A non-streamed reply takes as long as its tokens would have taken to stream. */
export async function writeJson(ctx: WriteContext, body: string, outputTokens: number): Promise<void> {
  const { res, scope, fault } = ctx;
  if (!(await scope.sleep(tokenDelay(ctx, outputTokens)))) return;
  if (fault?.kind === 'error-event') {
    const type = fault.errorType ?? 'overloaded_error';
    ctx.front.sendError(res, { status: statusForErrorType(type), type, message: fault.message ?? defaultErrorMessage(type) });
    return;
  }
  const half = body.slice(0, Math.floor(body.length / 2));
  const headers = ctx.front.okHeaders(ctx.facts);
  if (fault?.kind === 'malformed-sse') {
    res.writeHead(200, { ...headers, 'content-type': 'application/json' });
    res.end(half);
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  if (fault === null) {
    res.end(body);
    return;
  }
  // reset or stall part-way through the body
  res.write(half);
  if (fault.kind === 'reset-mid-stream') await resetAfterFlush(res);
  else await scope.untilClosed();
}
