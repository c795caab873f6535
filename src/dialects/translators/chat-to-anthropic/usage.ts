// Provider usage → chat usage. One function for the streamed and the non-streamed path, so both
// report the same numbers for the same conversation (docs/wire.md, "Usage fields").

import type { Usage } from '../../anthropic/wire.js';
import type { CompletionUsage } from '../../openai/wire.js';
import { emptyUsage, totalInput, usageOf, usageOfCommonText, type TokenUsage } from '../../../metering/token-usage.js';
import { thinkingTokensOf } from '../openai-shared/thinking-tokens.js';


/**
 * prompt = uncached + cache read + cache write (cached tokens are part of the prompt in the chat
 * format); cached_tokens = cache reads; cache_write_tokens only when there were any.
 */
export function chatUsageFrom(u: TokenUsage, reasoningTokens?: number): CompletionUsage {
  const prompt = totalInput(u);
  const usage: CompletionUsage = {
    prompt_tokens: prompt,
    completion_tokens: u.output,
    total_tokens: prompt + u.output,
    prompt_tokens_details:
      u.cacheWrite > 0 ? { cached_tokens: u.cacheRead, cache_write_tokens: u.cacheWrite } : { cached_tokens: u.cacheRead },
  };
  if (reasoningTokens !== undefined) usage.completion_tokens_details = { reasoning_tokens: reasoningTokens };
  return usage;
}

/** A non-streamed answer's `usage`, read once: what is metered (null: none reported) and what the client sees. */
export function answerUsages(providerUsage: unknown): { tokens: TokenUsage | null; chat: CompletionUsage } {
  const tokens = usageOf(providerUsage);
  if (tokens === null) return { tokens, chat: chatUsageFrom(emptyUsage()) };
  return { tokens, chat: chatUsageFrom(tokens, thinkingTokensOf(providerUsage as Usage)) };
}

/** answerUsages for the usage object's JSON text (the common shape read without a parse); null when it is not JSON. */
export function answerUsagesOfText(text: string): { tokens: TokenUsage | null; chat: CompletionUsage } | null {
  const common = usageOfCommonText(text);
  if (common !== undefined) return { tokens: common, chat: chatUsageFrom(common) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return answerUsages(parsed);
}
