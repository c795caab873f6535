// The session a request names, per client dialect: what keeps a conversation on one route, so the
// provider's prompt cache of that account keeps hitting. Messages: `metadata.user_id` (Claude Code
// puts its session there); chat: `prompt_cache_key`, else `user`; Responses: `prompt_cache_key`,
// else the `session-id` header. Only strings count.
import type { IncomingHttpHeaders } from 'node:http';
import type { ClientDialect } from './translators/translator.js';
import { responsesSession } from './translators/responses-to-anthropic/session.js';

export type SessionOf = (json: Record<string, unknown>, headers: IncomingHttpHeaders) => string | null;

export const SESSION_OF: Readonly<Record<ClientDialect, SessionOf>> = {
  messages: (json) => text(isObject(json.metadata) ? json.metadata.user_id : undefined),
  chat: (json) => text(json.prompt_cache_key) ?? text(json.user),
  responses: responsesSession,
};

function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
