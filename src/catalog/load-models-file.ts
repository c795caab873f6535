// Reads the optional catalogue config file: {"models":[{"id": "...", "defaultMaxTokens": 8192, ...}]}.
// `prices` is written in USD per million tokens (docs/spend.md) and held as integers from here on.
import { readFileSync } from 'node:fs';
import type { ModelSettings } from './catalogue.js';
import { parseModelPrices } from '../metering/prices.js';

export function loadModelsFile(path: string | null): ModelSettings[] {
  if (path === null) return [];
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { models?: unknown };
  if (!Array.isArray(parsed.models)) throw new Error(`${path}: expected {"models": [...]}`);
  return parsed.models.map((m, i) => {
    if (m === null || typeof m !== 'object' || typeof (m as { id?: unknown }).id !== 'string') {
      throw new Error(`${path}: models[${i}].id must be a string`);
    }
    const entry = m as Record<string, unknown>;
    if (!('prices' in entry)) return entry as ModelSettings;
    return { ...entry, prices: pricesOf(entry.prices, `${path}: models[${i}].prices`) } as ModelSettings;
  });
}

/** null says "this model has no price" (counted at zero and flagged), overriding any default. */
function pricesOf(value: unknown, where: string): ModelSettings['prices'] {
  return value === null ? null : parseModelPrices(value, where);
}
