// Every translator, found by its pair: the dialect the client speaks (the surface) and the one the
// provider of an attempt speaks. The router asks for the pair per attempt, so a failover to a route of
// another provider type is translated for that type; a pair the gateway needs and lacks refuses the
// start, never a request.
import { ConfigError } from '../../config/config-error.js';
import type { ClientDialect, ProviderDialect, Translator } from './translator.js';

export class Translators {
  /**
   * By client dialect, then provider dialect: two look-ups of names the code holds as constants (their
   * hashes kept). A key joined from the two per look-up was a new string to hash on every attempt,
   * ~0.6 µs a request in the bench's profile (issue 35).
   */
  private readonly byPair = new Map<ClientDialect, Map<ProviderDialect, Translator>>();

  constructor(translators: readonly Translator[]) {
    for (const t of translators) {
      let byProvider = this.byPair.get(t.client);
      if (byProvider === undefined) this.byPair.set(t.client, (byProvider = new Map()));
      byProvider.set(t.provider, t);
    }
  }

  /** The translator of a pair `check` vouched for. */
  get(client: ClientDialect, provider: ProviderDialect): Translator {
    const t = this.byPair.get(client)?.get(provider);
    if (t === undefined) throw new Error(`no translator from ${client} to ${provider}`);
    return t;
  }

  /** Refuses the start when a surface could meet a provider dialect it has no translator for. */
  check(clients: readonly ClientDialect[], providers: ReadonlyArray<{ id: string; dialect: ProviderDialect }>): void {
    for (const provider of providers) {
      for (const client of clients) {
        if (this.byPair.get(client)?.has(provider.dialect) !== true) {
          throw new ConfigError(`the provider "${provider.id}" speaks ${provider.dialect}, and the ${client} surface has no translator to it`);
        }
      }
    }
  }
}
