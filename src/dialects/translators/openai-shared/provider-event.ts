// One provider stream event, parsed for a stream translator (docs/wire.md, "SSE framing"): its JSON
// object, nothing for someone else's event (ignored), or why it cannot be read (the stream fails).
import { isRecord } from '../../../lib/is-record.js';
import type { SseEvent } from '../../sse/parser.js';
import { chatErrorKind } from './error.js';
import { messageDeltaOfCommonText } from '../../anthropic/common-events.js';

const PROVIDER_EVENTS = new Set([
  'message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'error',
]);

export type ProviderEvent = { ok: true; event: Record<string, unknown> } | { ok: false; malformed: string | null };

const IGNORED: ProviderEvent = { ok: false, malformed: null };

export function readProviderEvent(ev: SseEvent): ProviderEvent {
  const common = commonEvent(ev.data);
  if (common !== null) return { ok: true, event: common };
  let parsed: unknown;
  try {
    parsed = JSON.parse(ev.data);
  } catch {
    return { ok: false, malformed: 'The upstream sent a stream event that is not valid JSON.' };
  }
  if (isRecord(parsed)) return { ok: true, event: parsed };
  if (ev.event === undefined || !PROVIDER_EVENTS.has(ev.event)) return IGNORED;
  return { ok: false, malformed: 'The upstream sent a malformed stream event.' };
}

const PING = '{"type":"ping"}';
const MESSAGE_STOP = '{"type":"message_stop"}';
const BLOCK_STOP = /^\{"type":"content_block_stop","index":(0|[1-9][0-9]{0,8})\}$/;

/**
 * The small events of every stream in the provider's own layout, as JSON.parse would give them, made
 * without it: with message_delta's common layout, four of the six events a stream has besides its
 * deltas (issue 35). null for anything else.
 */
export function commonEvent(data: string): Record<string, unknown> | null {
  if (data === PING) return { type: 'ping' };
  if (data === MESSAGE_STOP) return { type: 'message_stop' };
  const stop = BLOCK_STOP.exec(data);
  if (stop !== null) return { type: 'content_block_stop', index: Number(stop[1]) };
  const delta = messageDeltaOfCommonText(data);
  if (delta === undefined) return null;
  return { type: 'message_delta', delta: { stop_reason: delta.stopReason, stop_sequence: null }, usage: delta.usage };
}

/** A message or content block event before message_start: the stream is not the provider's. */
export function outOfOrder(type: unknown): boolean {
  return typeof type === 'string' && (type.startsWith('message_') || type.startsWith('content_block_'));
}

export const NO_MESSAGE_START = 'The upstream stream did not begin with message_start.';

/** The provider's `error` event: its own error type and message, and the chat code for that type. */
export function streamErrorOf(ev: Record<string, unknown>): { type: string; code: string; message: string } {
  const err = isRecord(ev.error) ? ev.error : {};
  const type = typeof err.type === 'string' ? err.type : 'api_error';
  const message = typeof err.message === 'string' ? err.message : 'The upstream reported an error.';
  return { type, code: chatErrorKind(type, message).code ?? 'upstream_error', message };
}
