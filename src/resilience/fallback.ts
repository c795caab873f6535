// Fallback models: when a model keeps answering with a transient failure (overloaded, rate limited)
// the catalogue may name others to try in order; the request is re-addressed to the next one the
// key may use.
import type { CatalogModel } from '../catalog/model.js';
import type { Principal } from '../keys/principal.js';
import { mayUseModel } from '../keys/principal.js';
import type { UpstreamRequest } from '../upstream/client.js';

/**
 * What the gateway sends through the resilient caller: a body held whole in memory, so a retry or a
 * fallback can send it again. (Only the local proxy streams a body, and it does not retry.)
 */
export type ReplayableRequest = Omit<UpstreamRequest, 'body'> & { body: Buffer | string };

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

/**
 * The same request for another model: `model` replaced, and the sampling fields the new model does
 * not accept left out (the provider would refuse them). Null when the body is not a JSON object.
 */
export function readdressed(request: ReplayableRequest, model: CatalogModel): ReplayableRequest | null {
  const raw = request.body;
  let body: unknown;
  try {
    body = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch {
    return null;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const fields = body as Record<string, unknown>;
  fields.model = model.id;
  if (!model.accepts.temperature) delete fields.temperature;
  if (!model.accepts.topP) delete fields.top_p;
  if (!model.accepts.topK) delete fields.top_k;
  return { ...request, body: JSON.stringify(fields) };
}
