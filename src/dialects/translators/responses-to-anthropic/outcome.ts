// How an answer ended, in the Responses format: the provider's stop reason → the response's
// `status` and `incomplete_details`, through the same mapping as the chat surface's finish reasons
// (../openai-shared/finish-reason.ts), and its usage (docs/wire.md, "Usage fields").
import { totalInput, type TokenUsage } from '../../../metering/token-usage.js';
import type { ResponsesUsage } from '../../openai/responses-wire.js';
import { mapFinishReason } from '../openai-shared/finish-reason.js';

export interface ResponseOutcome {
  status: 'completed' | 'incomplete';
  /** `incomplete_details` as JSON text ('null' when complete). */
  incompleteJson: string;
  /** The stop reason was not one the mapping knows: the caller warns. */
  unknown: boolean;
}

const COMPLETED: ResponseOutcome = Object.freeze({ status: 'completed', incompleteJson: 'null', unknown: false });
const UNKNOWN: ResponseOutcome = Object.freeze({ status: 'completed', incompleteJson: 'null', unknown: true });
const CUT: ResponseOutcome = Object.freeze({ status: 'incomplete', incompleteJson: '{"reason":"max_output_tokens"}', unknown: false });
const FILTERED: ResponseOutcome = Object.freeze({ status: 'incomplete', incompleteJson: '{"reason":"content_filter"}', unknown: false });

/** `max_tokens` (and a full context window) → incomplete, max_output_tokens; a refusal → incomplete, content_filter. */
export function outcomeOf(stopReason: string | null): ResponseOutcome {
  const finish = mapFinishReason(stopReason);
  if (finish.unknown) return UNKNOWN;
  if (finish.reason === 'length') return CUT;
  if (finish.reason === 'content_filter') return FILTERED;
  return COMPLETED;
}

/**
 * input = uncached + cache read + cache write (as on the chat surface), cached_tokens = cache reads,
 * reasoning_tokens = the thinking tokens when the provider reports them, else 0.
 */
export function responsesUsageFrom(u: TokenUsage, reasoningTokens: number | undefined): ResponsesUsage {
  const input = totalInput(u);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: reasoningTokens ?? 0 },
    total_tokens: input + u.output,
  };
}
