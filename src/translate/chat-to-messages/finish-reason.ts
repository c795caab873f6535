// Provider stop_reason → chat finish_reason (protocol.md §4.4).

import type { FinishReason } from '../../wire/openai.js';

const FINISH: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** Unknown (or missing) reasons become `stop`, flagged so the caller can warn: never leak a raw value. */
export function mapFinishReason(stop: string | null): { reason: FinishReason; unknown: boolean } {
  const reason = stop !== null && Object.hasOwn(FINISH, stop) ? FINISH[stop] : undefined;
  return reason ? { reason, unknown: false } : { reason: 'stop', unknown: true };
}
