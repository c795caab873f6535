// A provider type: how one entry of the models file's `providers` becomes a Provider. Each type is a
// folder (anthropic/, bedrock/, vertex/) exporting one of these; registry.ts lists them.
import type { UpstreamOptions } from '../upstream/client.js';
import type { Provider, ProviderDialect } from './provider.js';
import type { ProviderFields } from './provider-fields.js';

/** Makes the provider once every entry has been read (so a bad entry refuses the start before any pool opens). */
export type ProviderFactory = (id: string, options: UpstreamOptions) => Provider | Promise<Provider>;

export interface ProviderType {
  /** The entry's `type`. */
  readonly type: string;
  /** The dialect its API speaks: the translators of every surface to it must exist (checked at start). */
  readonly dialect: ProviderDialect;
  /** Reads an entry's settings (secrets from the environment variables it names); throws a ConfigError naming the field. */
  configure(fields: ProviderFields): ProviderFactory;
}
