// The gateway's providers: one per entry of the models file's `providers` (each read by its type,
// every entry checked before any pool opens), or, without that list, the one `anthropic` provider of
// the environment (ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL, or the built-in simulator).
import { ConfigError } from '../config/config-error.js';
import type { UpstreamOptions } from '../upstream/client.js';
import { ANTHROPIC_PROVIDER_ID, createAnthropicProvider, type AnthropicSettings } from './anthropic/anthropic-provider.js';
import type { Provider } from './provider.js';
import { ProviderFields, type EnvLookup } from './provider-fields.js';
import type { ProviderFactory } from './provider-type.js';
import { PROVIDER_TYPES } from './registry.js';

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface ProvidersSource {
  /** The models file's `providers`, and the file's path; undefined entries: none listed. */
  readonly entries: readonly unknown[] | undefined;
  readonly path: string;
  readonly env: EnvLookup;
  /** The provider of the environment, when the file lists none (null: the file lists them, none is built). */
  readonly implicit: AnthropicSettings | null;
}

export async function buildProviders(source: ProvidersSource, options: UpstreamOptions): Promise<Provider[]> {
  if (source.entries === undefined) {
    if (source.implicit === null) throw new Error('buildProviders: no providers listed and no implicit provider');
    return [createAnthropicProvider(ANTHROPIC_PROVIDER_ID, source.implicit, options)];
  }
  if (source.entries.length === 0) throw new ConfigError(`${source.path}: "providers" is empty; list at least one, or leave it out`);
  const factories = source.entries.map((entry, i) => configure(entry, i, source));
  return Promise.all(factories.map(({ id, make }) => make(id, options)));
}

function configure(entry: unknown, i: number, source: ProvidersSource): { id: string; make: ProviderFactory } {
  const at = `${source.path}: providers[${i}]`;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new ConfigError(`${at}: must be an object {"id", "type", ...}`);
  const e = entry as Record<string, unknown>;
  if (typeof e.id !== 'string' || !ID.test(e.id)) throw new ConfigError(`${at}.id: must be letters, digits, '.', '_' or '-' (at most 64), got ${JSON.stringify(e.id)}`);
  const seen = source.entries!.slice(0, i).some((other) => (other as Record<string, unknown> | null)?.id === e.id);
  if (seen) throw new ConfigError(`${at}.id: "${e.id}" is listed twice`);
  const where = `${at} ("${e.id}")`;
  const type = PROVIDER_TYPES.find((t) => t.type === e.type);
  if (type === undefined) throw new ConfigError(`${where}.type: unknown provider type ${JSON.stringify(e.type)} (known: ${PROVIDER_TYPES.map((t) => t.type).join(', ')})`);
  return { id: e.id, make: type.configure(new ProviderFields(e, where, source.env)) };
}
