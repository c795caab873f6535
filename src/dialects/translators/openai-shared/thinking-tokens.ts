// The thinking share of the provider's output count, when it reports one: the OpenAI formats' reasoning tokens.
import type { Usage } from '../../anthropic/wire.js';

/** `output_tokens_details.thinking_tokens` when the provider reported it. */
export function thinkingTokensOf(u: Pick<Usage, 'output_tokens_details'>): number | undefined {
  const n = u.output_tokens_details?.thinking_tokens;
  return typeof n === 'number' ? n : undefined;
}
