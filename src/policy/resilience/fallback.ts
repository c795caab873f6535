// Fallback models: when a model keeps answering with a transient failure (overloaded, rate limited)
// the catalogue may name others to try in order; the request goes to the next one the key may use,
// translated again for it from the client's request (the route's translator, src/dialects/translators).
import type { CatalogModel } from '../../catalog/model.js';
import type { Principal } from '../../keys/principal.js';
import { mayUseModel } from '../../keys/principal.js';
import type { ReplayableRequest } from '../../upstream/client.js';

export type { ReplayableRequest };

export interface ModelLookup {
  resolve(name: string): CatalogModel | null;
}

/** The models to try after `model`, in catalogue order: known, allowed for the key, each once. */
export function fallbacksOf(model: CatalogModel, catalogue: ModelLookup, principal: Principal | null): CatalogModel[] {
  const out: CatalogModel[] = [];
  const seen = new Set([model.id]);
  for (const name of model.fallbacks) {
    const next = catalogue.resolve(name);
    if (next === null || seen.has(next.id) || !mayUseModel(principal, next.id)) continue;
    seen.add(next.id);
    out.push(next);
  }
  return out;
}
