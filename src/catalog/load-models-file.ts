// The catalogue's part of the models file: {"models":[{"id": "...", "defaultMaxTokens": 8192, "routes":
// [...], ...}]}. `prices` is written in USD per million tokens (docs/spend.md) and held as integers
// from here on; `routes` are read by model-routes.ts.
import { ConfigError } from '../config/config-error.js';
import type { ModelsFile } from '../config/models-file.js';
import type { ModelSettings } from './catalogue.js';
import { parseRoutes, type RouteSetting } from './model-routes.js';
import { parseModelPrices, PriceError } from '../metering/prices.js';

export interface ModelsFileSettings {
  readonly models: ModelSettings[];
  /** Model id → the routes its entry configures, with where the entry is. */
  readonly routes: Map<string, { routes: readonly RouteSetting[]; where: string }>;
}

export function modelsFileSettings(file: ModelsFile | null): ModelsFileSettings {
  const routes = new Map<string, { routes: readonly RouteSetting[]; where: string }>();
  if (file === null) return { models: [], routes };
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
  return { models, routes };
}

/** null says "this model has no price" (counted at zero and flagged), overriding any default. */
function pricesOf(value: unknown, where: string): ModelSettings['prices'] {
  try {
    return value === null ? null : parseModelPrices(value, where);
  } catch (err) {
    throw err instanceof PriceError ? new ConfigError(err.message) : err;
  }
}
