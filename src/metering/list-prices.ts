// Anthropic's published list prices for the catalogue's default models, taken on LIST_PRICES_TAKEN_ON
// from https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing"): base input, 5-minute
// and 1-hour cache writes, cache hits, output, in USD per million tokens; and ("Web search tool") $10 per
// 1,000 searches, the same for every model. Standard rates only: the gateway does not apply batch or
// long-context rates (docs/spend.md). A models file overrides them.
import { parseUsdPerMillion, parseUsdPerThousandUses, type ModelPrices } from './prices.js';

export const LIST_PRICES_TAKEN_ON = '2026-11-25';

/** Web search, USD per 1,000 searches (taken on the same date). */
const WEB_SEARCH_USD_PER_THOUSAND = '10';

function usdPerMillion(input: string, output: string, cacheWrite: string, cacheWrite1h: string, cacheRead: string): ModelPrices {
  const p = (v: string, kind: string) => parseUsdPerMillion(v, `list price ${kind}`);
  return Object.freeze({
    input: p(input, 'input'),
    output: p(output, 'output'),
    cacheWrite: p(cacheWrite, 'cacheWrite'),
    cacheWrite1h: p(cacheWrite1h, 'cacheWrite1h'),
    cacheRead: p(cacheRead, 'cacheRead'),
    webSearch: parseUsdPerThousandUses(WEB_SEARCH_USD_PER_THOUSAND, 'list price webSearch'),
  });
}

export const LIST_PRICES = Object.freeze({
  /** Claude Opus 4.7, listed by name. */
  'claude-opus-4-7': usdPerMillion('5', '25', '6.25', '10', '0.50'),
  /** Claude Sonnet 4.6, listed by name (prompts up to 200K input tokens). */
  'claude-sonnet-4-6': usdPerMillion('3', '15', '3.75', '6', '0.30'),
  /** Claude Haiku 4.5, listed by name. */
  'claude-haiku-4-5-20251001': usdPerMillion('1', '5', '1.25', '2', '0.10'),
} satisfies Record<string, ModelPrices>);
