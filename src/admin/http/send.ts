// JSON answers of the admin API: never cached, never sniffed as anything else.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { endJson } from '../../lib/json-response.js';

/**
 * On every /admin/api answer, errors included: the admin API routes carry them as fixed headers, which
 * the gateway sets before any stage runs, so no early refusal (401, 405, 413, 503 ...) can miss them.
 */
export const API_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
});

/** `headers`: the response's headers so far (the request context's), completed here. */
export function sendJson(res: ServerResponse, headers: OutgoingHttpHeaders, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = status === 204 ? '' : JSON.stringify(body);
  Object.assign(headers, extra);
  endJson(res, status, text, headers, 'application/json; charset=utf-8');
}
