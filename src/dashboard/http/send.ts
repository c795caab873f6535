// JSON answers of the admin API: never cached, never sniffed as anything else.
import type { ServerResponse } from 'node:http';
import { endJson } from '../../json-response.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = status === 204 ? '' : JSON.stringify(body);
  endJson(res, status, text, { ...headers, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }, 'application/json; charset=utf-8');
}
