// Provider stop_reason → chat finish_reason (docs/wire.md, "Stop reasons").

import type { FinishReason } from '../../openai/wire.js';

export interface MappedFinish {
  readonly reason: FinishReason;
  readonly unknown: boolean;
}

const known = (reason: FinishReason): MappedFinish => Object.freeze({ reason, unknown: false });

/** One answer object per reason, shared: mapping a reason allocates nothing. */
const FINISH: ReadonlyMap<string, MappedFinish> = new Map([
  ['end_turn', known('stop')],
  ['stop_sequence', known('stop')],
  ['pause_turn', known('stop')],
  ['max_tokens', known('length')],
  ['model_context_window_exceeded', known('length')],
  ['tool_use', known('tool_calls')],
  ['refusal', known('content_filter')],
]);

const UNKNOWN: MappedFinish = Object.freeze({ reason: 'stop', unknown: true });

/** Unknown (or missing) reasons become `stop`, flagged so the caller can warn: never leak a raw value. */
export function mapFinishReason(stop: string | null): MappedFinish {
  return (stop === null ? undefined : FINISH.get(stop)) ?? UNKNOWN;
}
