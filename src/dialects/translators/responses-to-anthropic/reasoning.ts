// `reasoning.effort` → the provider's extended thinking with a token budget (docs/wire.md,
// "Responses surface"). Thinking has rules of its own at the provider (docs/wire.md, "Messages
// requests"): a budget of at least 1024 and below max_tokens, no temperature but 1, top_p from 0.95,
// no forced tool choice. Where a request breaks one, the thinking or the field gives way, with a warning.
import type { MessagesRequest } from '../../anthropic/wire.js';
import { expectRecord, expectString, fail, isAbsent, type Warnings } from '../openai-shared/invalid.js';

/** Thinking tokens per effort; `none` asks for no thinking. */
export const THINKING_BUDGETS: Readonly<Record<string, number>> = Object.freeze({
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
});

const MIN_BUDGET = 1024;

export function applyReasoning(raw: unknown, request: MessagesRequest, warnings: Warnings): void {
  if (isAbsent(raw)) return;
  const reasoning = expectRecord(raw, 'reasoning');
  // `summary` asks for the thinking to be shown: the provider shows it (summarised) by default.
  if (isAbsent(reasoning.effort)) return;
  const effort = expectString(reasoning.effort, 'reasoning.effort');
  if (effort === 'none') return;
  const wanted = THINKING_BUDGETS[effort];
  if (wanted === undefined || !Object.hasOwn(THINKING_BUDGETS, effort)) {
    fail('reasoning.effort', `reasoning.effort must be one of none, ${Object.keys(THINKING_BUDGETS).join(', ')}`);
  }
  const forced = request.tool_choice?.type === 'any' || request.tool_choice?.type === 'tool';
  // The budget must stay below max_tokens: what is left of the output is the answer's.
  const budget = Math.min(wanted, request.max_tokens - 1);
  if (forced || budget < MIN_BUDGET) {
    warnings.add('field_ignored', 'reasoning.effort');
    return;
  }
  request.thinking = { type: 'enabled', budget_tokens: budget };
  if (request.temperature !== undefined && request.temperature !== 1) {
    delete request.temperature;
    warnings.add('sampling_field_dropped', 'temperature');
  }
  if (request.top_p !== undefined && request.top_p < 0.95) {
    delete request.top_p;
    warnings.add('sampling_field_dropped', 'top_p');
  }
  if (request.top_k !== undefined) {
    delete request.top_k;
    warnings.add('sampling_field_dropped', 'top_k');
  }
}
