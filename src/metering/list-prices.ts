// Anthropic's published list prices for the catalogue's default models, taken on LIST_PRICES_TAKEN_ON
// from https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing"): base input, 5-minute
// cache writes, cache hits, output, in USD per million tokens. Standard rates only: the gateway does not
// apply batch, long-context or 1-hour cache-write rates (docs/spend.md). A models file overrides them.
import { parseUsdPerMillion, type ModelPrices } from './prices.js';

export const LIST_PRICES_TAKEN_ON = '2026-11-25';

function usdPerMillion(input: string, output: string, cacheWrite: string, cacheRead: string): ModelPrices {
  const p = (v: string, kind: string) => parseUsdPerMillion(v, `list price ${kind}`);
  return Object.freeze({ input: p(input, 'input'), output: p(output, 'output'), cacheWrite: p(cacheWrite, 'cacheWrite'), cacheRead: p(cacheRead, 'cacheRead') });
}

export const LIST_PRICES = Object.freeze({
  /** Claude Opus 4.7, listed by name. */
  'claude-opus-4-7': usdPerMillion('5', '25', '6.25', '0.50'),
  /** Claude Sonnet 4.6, listed by name (prompts up to 200K input tokens). */
  'claude-sonnet-4-6': usdPerMillion('3', '15', '3.75', '0.30'),
  /** Claude Haiku 4.5, listed by name. */
  'claude-haiku-4-5-20251001': usdPerMillion('1', '5', '1.25', '0.10'),
} satisfies Record<string, ModelPrices>);
