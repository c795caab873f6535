// One upstream provider: where it is (its own connection pool), which dialect it speaks, how the gateway
// authenticates to it and how it lists its models. Stages reach the provider only through this
// interface; a second provider is a new folder beside anthropic/ plus its translators
// (src/dialects/translators/), not edits across the gateway.
import type { IncomingHttpHeaders } from 'node:http';
import type { ModelInfo } from '../dialects/anthropic/wire.js';
import type { ProviderDialect } from '../dialects/translators/translator.js';
import type { UpstreamClient } from '../upstream/client.js';

export interface Provider {
  /** Named by a catalogue model's `provider`. */
  readonly id: string;
  readonly dialect: ProviderDialect;
  /** Its connection pool, with the timeouts of the upstream settings. */
  readonly client: UpstreamClient;
  /** The credential the gateway sends it (null: none), so error bodies can be scrubbed of it. */
  readonly credential: string | null;
  /**
   * Headers for a request the client wrote in the provider's own dialect: the client's, minus its
   * credentials and hop-by-hop headers, plus the provider's credential.
   */
  forwardedHeaders(incoming: IncomingHttpHeaders): Record<string, string>;
  /** Headers for a request the gateway wrote (a translation; null incoming: the models refresh). */
  builtHeaders(incoming: IncomingHttpHeaders | null): Record<string, string>;
  /** Every model it serves now, for the catalogue's refresh. */
  listModels(): Promise<ModelInfo[]>;
  close(): Promise<void>;
}

/** The providers of one gateway, and which one serves a model. */
export interface Providers {
  /** The provider a catalogue model names; the default one for a model that names none. */
  of(model: { provider?: string } | null): Provider;
  readonly all: readonly Provider[];
}

export function providerSet(all: readonly Provider[], defaultId: string): Providers {
  const byId = new Map(all.map((p) => [p.id, p]));
  const fallback = byId.get(defaultId);
  if (fallback === undefined) throw new Error(`no provider "${defaultId}"`);
  return {
    all,
    of: (model) => (model?.provider === undefined ? fallback : (byId.get(model.provider) ?? fallback)),
  };
}
