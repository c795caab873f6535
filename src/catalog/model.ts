// One entry of the model catalogue: what the gateway knows about a model beyond its id.
import type { ModelTraits } from '../dialects/model-traits.js';
import { LIST_PRICES } from '../metering/list-prices.js';
import type { ModelPrices } from '../metering/prices.js';

export interface CatalogModel extends ModelTraits {
  displayName: string;
  /** RFC 3339 time, as the provider's models list gives it. */
  createdAt: string;
  /** Ordered models to try when this one is overloaded. */
  fallbacks: string[];
  /** Other names clients may use for this model. */
  aliases: string[];
  /** What its tokens cost (docs/spend.md); null when unknown: its requests are counted at zero and flagged. */
  prices: ModelPrices | null;
  /** True when `prices` is the operator's price for unpriced models (the models file's `unpricedModels`), not the model's own. */
  pricedByDefault?: boolean;
}

export const DEFAULT_MAX_TOKENS = 4096;

/** The three default models (docs/contract.md, "Default models"). */
export const DEFAULT_MODELS: readonly CatalogModel[] = Object.freeze([
  {
    id: 'claude-opus-4-7',
    displayName: 'Claude Opus 4.7',
    createdAt: '2026-04-16T00:00:00Z',
    defaultMaxTokens: DEFAULT_MAX_TOKENS,
    maxOutputTokens: 128000,
    // Models released after Opus 4.6 take only the default temperature and no top_k.
    accepts: { temperature: false, topP: false, topK: false },
    fallbacks: ['claude-sonnet-4-6'],
    aliases: [],
    prices: LIST_PRICES['claude-opus-4-7'],
  },
  {
    id: 'claude-sonnet-4-6',
    displayName: 'Claude Sonnet 4.6',
    createdAt: '2026-02-17T00:00:00Z',
    defaultMaxTokens: DEFAULT_MAX_TOKENS,
    maxOutputTokens: 64000,
    accepts: { temperature: true, topP: true, topK: true },
    fallbacks: [],
    aliases: [],
    prices: LIST_PRICES['claude-sonnet-4-6'],
  },
  {
    id: 'claude-haiku-4-5-20251001',
    displayName: 'Claude Haiku 4.5',
    createdAt: '2025-10-01T00:00:00Z',
    defaultMaxTokens: DEFAULT_MAX_TOKENS,
    maxOutputTokens: 64000,
    accepts: { temperature: true, topP: true, topK: true },
    fallbacks: [],
    aliases: ['claude-haiku-4-5'],
    prices: LIST_PRICES['claude-haiku-4-5-20251001'],
  },
]);
