// A request's cost, computed once and priced as it was served: the model that answered (a fallback's
// tokens cost what that model charges) through the route that answered (a route with prices of its
// own, a regional endpoint say, charges those), from the tokens the provider reported. The budget stage
// settles with it when the answer is done and the observe stage records it afterwards, so both see the
// same number.
import type { CatalogModel } from '../catalog/model.js';
import { requestCost, type RequestCost } from '../metering/cost.js';
import type { RequestContext } from './context.js';

/** `model`: the model the request asked for (ctx.model), priced when no fallback served it. */
export function servedCost(ctx: RequestContext, model: CatalogModel): RequestCost {
  return (ctx.cost ??= requestCost(ctx.usage, ctx.servedRoute?.prices ?? (ctx.servedModel ?? model).prices));
}
