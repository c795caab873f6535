// The one way a JSON text goes out as a whole response (gateway stages, dashboard API, simulator).
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Writes status and headers, then the text. `headers` is the caller's own fresh object (no copy is made
 * on the request path): content-type and content-length are set on it and win over what it held.
 */
export function endJson(res: ServerResponse, status: number, text: string, headers: OutgoingHttpHeaders = {}, contentType = 'application/json'): void {
  headers['content-type'] = contentType;
  headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}
