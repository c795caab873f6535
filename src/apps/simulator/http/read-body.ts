// Reads a request body up to a limit. Past the limit the rest is drained and dropped, so the
// 413 answer reaches a client that is still sending instead of a reset socket.
import type { IncomingMessage } from 'node:http';

export interface ReadBody {
  body: Buffer;
  tooLarge: boolean;
}

export function readBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) {
        chunks.push(chunk);
      }
    });
    req.once('end', () => resolve({ body: tooLarge ? Buffer.alloc(0) : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), tooLarge }));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('client closed the request before its body ended'));
    });
  });
}
