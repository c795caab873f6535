// The models file (GATEWAY_MODELS_FILE), read once at start: its `models` (catalogue settings and
// routes, read by src/catalog/), its `unpricedModels` default price (src/catalog/) and its `providers`
// (read by src/providers/). A file that cannot be
// read or is not a JSON object refuses the start with one line.
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.js';

export interface ModelsFile {
  readonly path: string;
  /** The `models` array ([] when absent). */
  readonly models: readonly unknown[];
  /** The `providers` array; undefined when the file has none (the one provider of the environment). */
  readonly providers: readonly unknown[] | undefined;
  /** The `unpricedModels` object (`{"prices": {...}}`: the price of models that have none); undefined when absent. */
  readonly unpricedModels: unknown;
}

export function readModelsFile(path: string | null): ModelsFile | null {
  if (path === null) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`GATEWAY_MODELS_FILE: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`GATEWAY_MODELS_FILE: ${path} is not JSON (${(err as Error).message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ConfigError(`${path}: expected {"models": [...], "providers": [...]}`);
  const file = json as Record<string, unknown>;
  const models = file.models ?? [];
  if (!Array.isArray(models)) throw new ConfigError(`${path}: "models" must be an array`);
  const providers = file.providers;
  if (providers !== undefined && !Array.isArray(providers)) throw new ConfigError(`${path}: "providers" must be an array`);
  return { path, models, providers, unpricedModels: file.unpricedModels };
}
