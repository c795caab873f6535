// The `routes` of a models file entry: which providers serve the model, under which of their ids,
// with which weight and priority, at which prices. Read here as settings (provider ids); the router
// (src/policy/routing/route-table.ts) joins them with the providers and refuses a route that names
// none. `"provider": "x"` on an entry is short for `"routes": [{"provider": "x"}]`.
import { ConfigError } from '../config/config-error.js';
import type { ModelPrices } from '../metering/prices.js';
import { parseModelPrices } from '../metering/prices.js';

export interface RouteSetting {
  /** The id of an entry of the models file's `providers`. */
  readonly provider: string;
  /** The provider's id for the model; null: the catalogue id. */
  readonly model: string | null;
  readonly weight: number;
  readonly priority: number;
  readonly prices: ModelPrices | null;
}

const FIELDS = new Set(['provider', 'model', 'weight', 'priority', 'prices']);

/** `where`: e.g. `models.json: models[2] ("claude-sonnet-4-6")`. */
export function parseRoutes(value: unknown, where: string): RouteSetting[] {
  if (!Array.isArray(value) || value.length === 0) throw new ConfigError(`${where}.routes: must be a non-empty array of {"provider", "model"?, "weight"?, "priority"?, "prices"?}`);
  return value.map((entry, i) => parseRoute(entry, `${where}.routes[${i}]`));
}

function parseRoute(entry: unknown, where: string): RouteSetting {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new ConfigError(`${where}: must be an object {"provider", ...}`);
  const r = entry as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) throw new ConfigError(`${where}: unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')} (a route has provider, model, weight, priority, prices)`);
  if (typeof r.provider !== 'string' || r.provider === '') throw new ConfigError(`${where}.provider: must name an entry of "providers", got ${JSON.stringify(r.provider)}`);
  if (r.model !== undefined && (typeof r.model !== 'string' || r.model === '')) throw new ConfigError(`${where}.model: must be the provider's model id (a string), got ${JSON.stringify(r.model)}`);
  const weight = r.weight ?? 1;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0) throw new ConfigError(`${where}.weight: must be a positive number, got ${JSON.stringify(r.weight)}`);
  const priority = r.priority ?? 1;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 1) throw new ConfigError(`${where}.priority: must be an integer >= 1 (lower is tried first), got ${JSON.stringify(r.priority)}`);
  let prices: ModelPrices | null = null;
  if (r.prices !== undefined && r.prices !== null) {
    try {
      prices = parseModelPrices(r.prices, `${where}.prices`);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  }
  return { provider: r.provider, model: (r.model as string | undefined) ?? null, weight, priority, prices };
}
