// JSON answers of the admin API: never cached, never sniffed as anything else.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { endJson } from '../../json-response.js';

/** `headers`: the response's headers so far (the request context's), completed here. */
export function sendJson(res: ServerResponse, headers: OutgoingHttpHeaders, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = status === 204 ? '' : JSON.stringify(body);
  Object.assign(headers, extra);
  headers['cache-control'] = 'no-store';
  headers['x-content-type-options'] = 'nosniff';
  endJson(res, status, text, headers, 'application/json; charset=utf-8');
}
