// The conversation a Responses request names: `prompt_cache_key`, else the `session-id` header
// (Codex sends it as `session_id`). It keeps the conversation on one upstream route.
import type { IncomingHttpHeaders } from 'node:http';

const SESSION_HEADERS = ['session-id', 'session_id'];

export function sessionHeader(headers: IncomingHttpHeaders): string | undefined {
  for (const name of SESSION_HEADERS) {
    const v = headers[name];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** The session of a Responses request, or null; a `prompt_cache_key` of another type is the translation's 400. */
export function responsesSession(json: Record<string, unknown>, headers: IncomingHttpHeaders): string | null {
  const key = json.prompt_cache_key;
  if (typeof key === 'string' && key !== '') return key;
  return sessionHeader(headers) ?? null;
}
