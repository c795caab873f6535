// The request's cost is computed once and priced as the model that answered: the budget stage settles
// and the observe stage records the same number.
import t from 'tap';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createContext, type RequestContext } from '../../../src/gateway/context.js';
import { servedCost } from '../../../src/gateway/served-cost.js';
import { DEFAULT_MODELS, type CatalogModel } from '../../../src/catalog/model.js';
import { requestCost } from '../../../src/metering/cost.js';

const [opus, sonnet] = DEFAULT_MODELS as [CatalogModel, CatalogModel];
const unpriced: CatalogModel = { ...sonnet, id: 'unpriced', prices: null };

function answered(served: CatalogModel | null): RequestContext {
  // The request and response objects are never read by servedCost.
  const ctx = createContext('req-1', {} as IncomingMessage, {} as ServerResponse, { name: '/v1/messages', surface: 'messages', errorFormat: 'messages' }, '', 0);
  ctx.usage = { input: 1000, output: 200, cacheRead: 50, cacheWrite: 10 };
  ctx.servedModel = served;
  return ctx;
}

t.test('priced as the model that answered', async (t) => {
  const cases: Array<[string, CatalogModel | null, CatalogModel]> = [
    ['no fallback: the asked model', null, opus],
    ['a fallback: the model that served', sonnet, sonnet],
    ['a fallback without prices: unpriced', unpriced, unpriced],
  ];
  for (const [name, served, pricedAs] of cases) {
    const ctx = answered(served);
    t.same(servedCost(ctx, opus), requestCost(ctx.usage, pricedAs.prices), name);
  }
});

t.test('computed once: a second caller gets the first result', async (t) => {
  const ctx = answered(null);
  t.equal(ctx.cost, null, 'nothing priced before the answer is done');
  const first = servedCost(ctx, opus);
  t.ok(first.priced && first.nanoUsd > 0);
  ctx.usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  t.equal(servedCost(ctx, opus), first, 'the same object, not a second computation');
});
