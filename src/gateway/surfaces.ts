// Where each protocol surface is mounted, and which error format a path answers in. Tiny on purpose:
// the local proxy imports it without loading the gateway's stages.
import type { ErrorFormat } from '../dialects/errors/render.js';

export const MESSAGES_PREFIX = '/gateway/v1';
export const CHAT_PREFIX = '/gateway/openai/v1';

/** The messages surface answers in the provider's error shape; everything else in the chat shape. */
export function errorFormatOf(path: string): ErrorFormat {
  return path === MESSAGES_PREFIX || path.startsWith(`${MESSAGES_PREFIX}/`) ? 'messages' : 'chat';
}
