// Reads the optional catalogue config file: {"models":[{"id": "...", "defaultMaxTokens": 8192, ...}]}.
import { readFileSync } from 'node:fs';
import type { ModelSettings } from './catalogue.js';

export function loadModelsFile(path: string | null): ModelSettings[] {
  if (path === null) return [];
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { models?: unknown };
  if (!Array.isArray(parsed.models)) throw new Error(`${path}: expected {"models": [...]}`);
  return parsed.models.map((m, i) => {
    if (m === null || typeof m !== 'object' || typeof (m as { id?: unknown }).id !== 'string') {
      throw new Error(`${path}: models[${i}].id must be a string`);
    }
    return m as ModelSettings;
  });
}
