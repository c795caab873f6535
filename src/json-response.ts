// The one way a JSON text goes out as a whole response (gateway stages, dashboard API, simulator).
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Writes status and headers, then the text; content-type and content-length come last and win over `headers`. */
export function endJson(res: ServerResponse, status: number, text: string, headers?: OutgoingHttpHeaders, contentType = 'application/json'): void {
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
