// Reads the request body into one Buffer, refusing what is too large or not JSON before reading it all.
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Stage } from '../compose.js';
import { isJsonMediaType, mediaTypeOf } from '../../lib/json/media-type.js';

/** `limit`: the most bytes a body may have (the gateway's setting, or the admin API's smaller one). */
export function readBodyStage(limit: number): Stage {
  return async (ctx, next) => {
    const { req } = ctx;
    checkContentType(req.headers['content-type']);
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
    ctx.body = await readAll(req, limit, declared === undefined ? -1 : Number(declared));
    // Awaited, not returned: an async function returning a promise adopts it two microtask turns later.
    await next(ctx);
  };
}

function checkContentType(type: string | undefined): void {
  if (type === undefined) return;
  const mime = mediaTypeOf(type);
  if (isJsonMediaType(mime)) return;
  throw new GatewayError('unsupported_media_type', `Content-Type must be application/json, got "${mime.slice(0, 80)}".`);
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError('request_too_large', `Request body is larger than the limit of ${limit} bytes.`);
}

function readAll(req: IncomingMessage, limit: number, declared: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        // Stop reading; the answer goes out and the connection closes after it.
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      // A client that leaves mid-body: Node 20 reports it as the request's own error ('aborted',
      // ECONNRESET) before 'close'. That is the client's doing, not a fault of the pipeline's.
      if (!req.complete) return onAborted();
      cleanup();
      reject(err);
    };
    const onAborted = () => {
      cleanup();
      reject(new GatewayError('invalid_request', 'The request body was not received completely.'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onClose = () => {
      if (!req.complete) onAborted();
    };
    if (declared === 0) return resolve(Buffer.alloc(0));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
