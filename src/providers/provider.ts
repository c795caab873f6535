// One upstream provider: where it is (its own connection pool), which dialect it speaks, how the gateway
// authenticates to it and how it lists its models. Stages reach the provider only through this
// interface; a second provider is a new folder beside anthropic/ plus its translators
// (src/dialects/translators/), not edits across the gateway.
import type { IncomingHttpHeaders } from 'node:http';
import { ConfigError } from '../config/config-error.js';
import type { ModelInfo } from '../dialects/anthropic/wire.js';
import type { ProviderDialect } from '../dialects/translators/translator.js';
import type { UpstreamClient } from '../upstream/client.js';

export interface Provider {
  /** Named by a catalogue model's `provider`. */
  readonly id: string;
  /** Who serves it, in the GenAI semantic conventions' words (`gen_ai.provider.name`: anthropic, aws.bedrock, gcp.vertex_ai). */
  readonly genAiProvider: string;
  readonly dialect: ProviderDialect;
  /** Its connection pool, with the timeouts of the upstream settings. */
  readonly client: UpstreamClient;
  /** An error body with the gateway's credential for it replaced, should the provider ever echo it. */
  scrubCredential(body: Buffer): Buffer;
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

/**
 * The gateway's providers. Every model of the catalogue's configuration must name one of them (or
 * none): checked here, once, so a lookup on the request path never meets an unknown name.
 */
export function providerSet(all: readonly Provider[], defaultId: string, models: ReadonlyArray<{ id: string; provider?: string }>): Providers {
  const byId = new Map(all.map((p) => [p.id, p]));
  const fallback = byId.get(defaultId);
  if (fallback === undefined) throw new Error(`no provider "${defaultId}"`);
  for (const m of models) {
    if (m.provider !== undefined && !byId.has(m.provider)) {
      throw new ConfigError(`GATEWAY_MODELS_FILE: the model "${m.id}" names the provider "${m.provider}", which this gateway does not have (it has: ${[...byId.keys()].join(', ')})`);
    }
  }
  return {
    all,
    of: (model) => (model?.provider === undefined ? fallback : (byId.get(model.provider) ?? fallback)),
  };
}
