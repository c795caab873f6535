// Every translator, found by its pair: the dialect the client speaks (the surface) and the one the
// provider of an attempt speaks. The router asks for the pair per attempt, so a failover to a route of
// another provider type is translated for that type; a pair the gateway needs and lacks refuses the
// start, never a request.
import { ConfigError } from '../../config/config-error.js';
import type { ClientDialect, ProviderDialect, Translator } from './translator.js';

export class Translators {
  private readonly byPair = new Map<string, Translator>();

  constructor(translators: readonly Translator[]) {
    for (const t of translators) this.byPair.set(pairKey(t.client, t.provider), t);
  }

  /** The translator of a pair `check` vouched for. */
  get(client: ClientDialect, provider: ProviderDialect): Translator {
    const t = this.byPair.get(pairKey(client, provider));
    if (t === undefined) throw new Error(`no translator from ${client} to ${provider}`);
    return t;
  }

  /** Refuses the start when a surface could meet a provider dialect it has no translator for. */
  check(clients: readonly ClientDialect[], providers: ReadonlyArray<{ id: string; dialect: ProviderDialect }>): void {
    for (const provider of providers) {
      for (const client of clients) {
        if (!this.byPair.has(pairKey(client, provider.dialect))) {
          throw new ConfigError(`the provider "${provider.id}" speaks ${provider.dialect}, and the ${client} surface has no translator to it`);
        }
      }
    }
  }
}

function pairKey(client: ClientDialect, provider: ProviderDialect): string {
  return `${client}>${provider}`;
}
