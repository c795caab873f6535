// The prices a hard budget's reservation is made at, per catalogue model: the dearest among every way
// the request may be served (each route of the model, then each route of each fallback model), since
// the settle prices the request as it was served (gateway/served-cost.ts) and a reservation below that
// lets a budget pass by more than one request (docs/spend.md). One way without a price makes the whole
// model unpriced for the budget: its cost could not be counted.
//
// Worked out once per catalogue model (the catalogue makes new model objects when it refreshes, so a
// refreshed model is worked out again on its first request), never per request: the budget stage only
// looks the answer up.
import type { CatalogModel } from '../../catalog/model.js';
import { mayUseModel, type Principal } from '../../keys/principal.js';
import { cacheWrite1hPrice, type ModelPrices } from '../../metering/prices.js';
import { fallbacksOf, type ModelLookup } from '../resilience/fallback.js';

/** What charges for each way of serving a model (route.prices ?? model.prices per route): the route table. */
export interface ServingPrices {
  servingPrices(model: CatalogModel): ReadonlyArray<ModelPrices | null>;
}

/** A model's ways worked out: its own routes', each fallback's, and all of them together. */
interface ModelWays {
  /** The dearest of the model's own routes; null: one of them is unpriced. */
  readonly own: ModelPrices | null;
  readonly fallbacks: ReadonlyArray<{ readonly id: string; readonly prices: ModelPrices | null }>;
  /** The dearest of every way, fallbacks included: what a key that may use every model reserves at. */
  readonly all: ModelPrices | null;
}

export class ReservationPrices {
  private readonly known = new WeakMap<CatalogModel, ModelWays>();

  constructor(
    private readonly catalogue: ModelLookup & { list(): readonly CatalogModel[] },
    private readonly routes: ServingPrices,
  ) {
    for (const model of catalogue.list()) this.waysOf(model);
  }

  /**
   * The prices to reserve a request for `model` at, for this principal; null: some way of serving it
   * has no price (the unpriced rules apply). A key limited to some models is not held at the price of
   * a fallback it may not use: the router never takes it there (policy/resilience/fallback.ts).
   */
  pricesFor(model: CatalogModel, principal: Principal | null): ModelPrices | null {
    const ways = this.waysOf(model);
    if (principal === null || principal.allowedModels === null || ways.fallbacks.length === 0) return ways.all;
    return dearestPrices([ways.own, ...ways.fallbacks.filter((f) => mayUseModel(principal, f.id)).map((f) => f.prices)]);
  }

  private waysOf(model: CatalogModel): ModelWays {
    const known = this.known.get(model);
    if (known !== undefined) return known;
    const own = dearestPrices(this.routes.servingPrices(model));
    // No principal: every fallback the router may move to, before a key's allowed models are applied.
    const fallbacks = fallbacksOf(model, this.catalogue, null).map((f) => ({ id: f.id, prices: dearestPrices(this.routes.servingPrices(f)) }));
    const ways = { own, fallbacks, all: dearestPrices([own, ...fallbacks.map((f) => f.prices)]) };
    this.known.set(model, ways);
    return ways;
  }
}

/**
 * Every price field at its highest among `ways`, the optional ones at the price in force (the 1-hour
 * cache write at twice the input when not given, web search at 0); null when any way has no price or
 * there is none.
 */
export function dearestPrices(ways: ReadonlyArray<ModelPrices | null>): ModelPrices | null {
  let dearest: ModelPrices | null = null;
  for (const p of ways) {
    if (p === null) return null;
    const d: ModelPrices = dearest ?? p;
    dearest = {
      input: Math.max(d.input, p.input),
      output: Math.max(d.output, p.output),
      cacheWrite: Math.max(d.cacheWrite, p.cacheWrite),
      cacheRead: Math.max(d.cacheRead, p.cacheRead),
      cacheWrite1h: Math.max(cacheWrite1hPrice(d), cacheWrite1hPrice(p)),
      webSearch: Math.max(d.webSearch ?? 0, p.webSearch ?? 0),
    };
  }
  return dearest;
}
