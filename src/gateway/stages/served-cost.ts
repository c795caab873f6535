// What a request cost, priced as it was served: the model that answered (a fallback's tokens cost what
// that model charges) through the route that answered (a route with prices of its own, a regional
// endpoint say, charges those). The usage row and the budget settle price it the same way.
import type { CatalogModel } from '../../catalog/model.js';
import { requestCost, type RequestCost } from '../../metering/cost.js';
import type { RequestContext } from '../context.js';

export function servedCost(ctx: RequestContext, requested: CatalogModel): RequestCost {
  return requestCost(ctx.usage, ctx.servedRoute?.prices ?? (ctx.servedModel ?? requested).prices);
}
