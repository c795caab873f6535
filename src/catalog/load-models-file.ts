// The catalogue's part of the models file: {"models":[{"id": "...", "defaultMaxTokens": 8192, "routes":
// [...], ...}]}. `prices` is written in USD per million tokens (docs/spend.md) and held as integers
// from here on; `routes` are read by model-routes.ts.
import { ConfigError } from '../config/config-error.js';
import type { ModelsFile } from '../config/models-file.js';
import type { ModelSettings } from './catalogue.js';
import { parseRoutes, type RouteSetting } from './model-routes.js';
import { parseModelPrices, PriceError, type ModelPrices } from '../metering/prices.js';

export interface ModelsFileSettings {
  readonly models: ModelSettings[];
  /** Model id → the routes its entry configures, with where the entry is. */
  readonly routes: Map<string, { routes: readonly RouteSetting[]; where: string }>;
  /**
   * The operator's price for models that have none (`unpricedModels.prices`); null when not set, and then
   * a key or customer with a hard budget cannot use such a model (docs/spend.md, "Unpriced models").
   */
  readonly unpricedPrices: ModelPrices | null;
}

export function modelsFileSettings(file: ModelsFile | null): ModelsFileSettings {
  const routes = new Map<string, { routes: readonly RouteSetting[]; where: string }>();
  if (file === null) return { models: [], routes, unpricedPrices: null };
  const models = file.models.map((m, i) => {
    if (m === null || typeof m !== 'object' || typeof (m as { id?: unknown }).id !== 'string') {
      throw new ConfigError(`${file.path}: models[${i}].id must be a string`);
    }
    const { routes: routeList, provider, ...entry } = m as Record<string, unknown>;
    const where = `${file.path}: models[${i}] ("${entry.id as string}")`;
    if (routeList !== undefined && provider !== undefined) throw new ConfigError(`${where}: give "routes" or "provider", not both`);
    if (routeList !== undefined) routes.set(entry.id as string, { routes: parseRoutes(routeList, where), where });
    else if (provider !== undefined) routes.set(entry.id as string, { routes: parseRoutes([{ provider }], where), where });
    if (!('prices' in entry)) return entry as ModelSettings;
    return { ...entry, prices: pricesOf(entry.prices, `${file.path}: models[${i}].prices`) } as ModelSettings;
  });
  return { models, routes, unpricedPrices: unpricedPricesOf(file) };
}

/** `"unpricedModels": {"prices": {...}}`: one price list for every model the catalogue has no price for. */
function unpricedPricesOf(file: ModelsFile): ModelPrices | null {
  const value = file.unpricedModels;
  if (value === undefined) return null;
  const where = `${file.path}: unpricedModels`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where} must be an object {"prices": {...}}`);
  const extra = Object.keys(value).filter((k) => k !== 'prices');
  if (extra.length > 0) throw new ConfigError(`${where} has unknown field(s) ${extra.join(', ')}; expected prices`);
  const prices = pricesOf((value as { prices?: unknown }).prices ?? null, `${where}.prices`) ?? null;
  if (prices === null) throw new ConfigError(`${where}.prices must be an object {"input", "output", "cacheWrite", "cacheRead"} in USD per million tokens`);
  return prices;
}

/** null says "this model has no price" (counted at zero and flagged), overriding any default. */
function pricesOf(value: unknown, where: string): ModelSettings['prices'] {
  try {
    return value === null ? null : parseModelPrices(value, where);
  } catch (err) {
    throw err instanceof PriceError ? new ConfigError(err.message) : err;
  }
}
