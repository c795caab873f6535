// The catalogue, for the allowed-models choice when creating a key, with each model's prices.
import type { Catalogue } from '../../catalog/catalogue.js';
import type { CatalogModel } from '../../catalog/model.js';
import { formatUsdPerMillion } from '../../metering/cost.js';
import { cacheWrite1hPrice, type ModelPrices } from '../../metering/prices.js';
import type { ApiRoute } from './types.js';
import { ok } from './types.js';

export function modelRoutes(catalogue: Catalogue): ApiRoute[] {
  return [
    {
      method: 'GET',
      pattern: '/models',
      access: 'signed-in',
      handler: async () => ok({ models: catalogue.list().map(modelView), unpricedModels: { prices: pricesView(catalogue.unpricedPrices) } }),
    },
  ];
}

/** Prices as the models file writes them: USD per million tokens, exact decimal strings. */
export type PricesView = Record<keyof ModelPrices, string>;

export interface ModelView {
  id: string;
  displayName: string;
  /** False: requests to it are counted at zero cost, and refused under a hard budget (docs/spend.md). */
  priced: boolean;
  /** True when its prices are the operator's default for unpriced models, not its own. */
  pricedByDefault: boolean;
  /** USD per million tokens, as the models file writes them; null when unknown. */
  prices: PricesView | null;
}

function modelView(m: CatalogModel): ModelView {
  return { id: m.id, displayName: m.displayName, priced: m.prices !== null, pricedByDefault: m.pricedByDefault === true, prices: pricesView(m.prices) };
}

function pricesView(p: ModelPrices | null): PricesView | null {
  if (p === null) return null;
  return {
    input: formatUsdPerMillion(p.input),
    output: formatUsdPerMillion(p.output),
    cacheWrite: formatUsdPerMillion(p.cacheWrite),
    cacheWrite1h: formatUsdPerMillion(cacheWrite1hPrice(p)),
    cacheRead: formatUsdPerMillion(p.cacheRead),
    // USD per 1,000 uses: nano-dollars per use ÷ 1000 are thousandths of a dollar per 1,000 uses.
    webSearch: formatUsdPerMillion((p.webSearch ?? 0) / 1000),
  };
}
