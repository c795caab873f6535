// The prices a budget reserves at, per catalogue model (issue 34): the dearest, price field by price
// field, among the model's routes (a route's own prices, else the model's) and its fallbacks' routes;
// unpriced when any of those ways has no price; the operator's default price for unpriced models
// counting as a price. Worked out from a real catalogue and a real route table (their providers are
// stand-ins with an id: neither calls them).
import t from 'tap';
import { Catalogue, type ModelSettings } from '../../../../src/catalog/catalogue.js';
import type { RouteSetting } from '../../../../src/catalog/model-routes.js';
import type { ModelPrices } from '../../../../src/metering/prices.js';
import { dearestPrices, ReservationPrices } from '../../../../src/policy/budgets/reservation-prices.js';
import { RouteTable } from '../../../../src/policy/routing/route-table.js';
import type { Provider } from '../../../../src/providers/provider.js';
import { principal } from '../../gateway/stages/stage-context.js';
import { BREAKER } from '../routing/fixtures/routes.js';

const prices = (input: number, output: number, more: Partial<ModelPrices> = {}): ModelPrices => ({ input, output, cacheWrite: input, cacheRead: input / 10, ...more });
/** What dearestPrices gives for one price list: the optional prices as they are in force. */
const inForce = (p: ModelPrices): ModelPrices => ({ ...p, cacheWrite1h: p.cacheWrite1h ?? 2 * p.input, webSearch: p.webSearch ?? 0 });

const CHEAP = prices(1000, 5000);
const DEAR = prices(3000, 15_000);
const route = (provider: string, p: ModelPrices | null = null): RouteSetting => ({ provider, model: null, weight: 1, priority: 1, prices: p });

interface Setup {
  models: ModelSettings[];
  /** Model id → its configured routes. */
  routes?: Record<string, RouteSetting[]>;
  unpriced?: ModelPrices;
}

function book(setup: Setup) {
  const catalogue = new Catalogue({ defaults: [], configured: setup.models, fetchLive: null, refreshMs: 60_000, unpricedPrices: setup.unpriced ?? null });
  const configured = new Map(Object.entries(setup.routes ?? {}).map(([id, routes]) => [id, { routes, where: `models[${id}]` }]));
  const table = new RouteTable({ providers: ['east', 'west'].map((id) => ({ id }) as Provider), named: true, configured, breaker: BREAKER });
  return { catalogue, table, prices: new ReservationPrices(catalogue, table) };
}

t.test('the prices a model reserves at, from its routes and fallbacks', async (t) => {
  const cases: Array<[string, Setup, ModelPrices | null]> = [
    ['one route without prices: the model’s', { models: [{ id: 'm', prices: CHEAP }] }, inForce(CHEAP)],
    ['a configured route without prices of its own: the model’s', { models: [{ id: 'm', prices: CHEAP }], routes: { m: [route('east')] } }, inForce(CHEAP)],
    ['a dearer route: its prices', { models: [{ id: 'm', prices: CHEAP }], routes: { m: [route('east'), route('west', DEAR)] } }, inForce(DEAR)],
    [
      'each price field at its dearest route',
      { models: [{ id: 'm', prices: CHEAP }], routes: { m: [route('east', prices(3000, 5000, { webSearch: 10_000_000 })), route('west', prices(1000, 15_000, { cacheWrite1h: 9000 }))] } },
      { input: 3000, output: 15_000, cacheWrite: 3000, cacheRead: 300, cacheWrite1h: 9000, webSearch: 10_000_000 },
    ],
    ['a dearer fallback: its prices', { models: [{ id: 'm', prices: CHEAP, fallbacks: ['f'] }, { id: 'f', prices: DEAR }] }, inForce(DEAR)],
    ['a fallback’s dearer route counts too', { models: [{ id: 'm', prices: CHEAP, fallbacks: ['f'] }, { id: 'f', prices: CHEAP }], routes: { f: [route('west', DEAR)] } }, inForce(DEAR)],
    ['an unpriced fallback: unpriced', { models: [{ id: 'm', prices: CHEAP, fallbacks: ['f'] }, { id: 'f' }] }, null],
    ['a fallback the catalogue does not know: not a way', { models: [{ id: 'm', prices: CHEAP, fallbacks: ['gone'] }] }, inForce(CHEAP)],
    ['unpriced, every route priced: the dearest route', { models: [{ id: 'm' }], routes: { m: [route('east', CHEAP), route('west', DEAR)] } }, inForce(DEAR)],
    ['unpriced, one route without prices: unpriced', { models: [{ id: 'm' }], routes: { m: [route('east', CHEAP), route('west')] } }, null],
    ['unpriced, no routes: unpriced', { models: [{ id: 'm' }] }, null],
    ['unpriced with the operator’s default: the default', { models: [{ id: 'm' }], unpriced: DEAR }, inForce(DEAR)],
    ['an unpriced fallback with the operator’s default: priced by it', { models: [{ id: 'm', prices: CHEAP, fallbacks: ['f'] }, { id: 'f' }], unpriced: DEAR }, inForce(DEAR)],
    ['a route’s prices over the operator’s default', { models: [{ id: 'm' }], routes: { m: [route('east', CHEAP)] }, unpriced: DEAR }, inForce(CHEAP)],
  ];
  for (const [name, setup, want] of cases) {
    const { catalogue, prices: book_ } = book(setup);
    t.strictSame(book_.pricesFor(catalogue.resolve('m')!, null), want, name);
  }
});

t.test('a key limited to some models is held only at the prices of the fallbacks it may use', async (t) => {
  const { catalogue, prices: p } = book({ models: [{ id: 'm', prices: CHEAP, fallbacks: ['dear', 'unpriced'] }, { id: 'dear', prices: DEAR }, { id: 'unpriced' }] });
  const m = catalogue.resolve('m')!;
  const limited = (...ids: string[]) => principal({ allowedModels: new Set(ids) });
  t.strictSame(p.pricesFor(m, principal()), null, 'a key that may use every model: the unpriced fallback counts');
  t.strictSame(p.pricesFor(m, limited('m')), inForce(CHEAP), 'no fallback allowed: the model’s own');
  t.strictSame(p.pricesFor(m, limited('m', 'dear')), inForce(DEAR), 'the dear fallback allowed');
  t.strictSame(p.pricesFor(m, limited('m', 'unpriced')), null, 'the unpriced fallback allowed');
});

t.test('working the prices out makes no route: the table keeps only the configured ones', async (t) => {
  const { catalogue, table, prices: p } = book({ models: [{ id: 'm', prices: CHEAP, fallbacks: ['f'] }, { id: 'f', prices: DEAR }], routes: { m: [route('east')] } });
  t.strictSame(p.pricesFor(catalogue.resolve('m')!, null), inForce(DEAR));
  t.strictSame(table.all().map((s) => s.route.name), ['m@east']);
});

t.test('dearestPrices: none is unpriced; one unpriced way makes them all unpriced', async (t) => {
  t.equal(dearestPrices([]), null);
  t.equal(dearestPrices([CHEAP, null, DEAR]), null);
  t.strictSame(dearestPrices([CHEAP]), inForce(CHEAP));
});
