import t from 'tap';
import type { CatalogModel } from '../../../../src/catalog/model.js';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import { MAX_ROUTES, RouteBreakers, SHARED_ROUTE } from '../../../../src/policy/resilience/route-breakers.js';

const SETTINGS = { minCalls: 1, failurePercent: 50, windowMs: 10_000, coolDownMs: 10_000 };
const [opus, sonnet] = DEFAULT_MODELS;
const modelNamed = (id: string): CatalogModel => ({ ...sonnet, id });

t.test('one breaker per model: one route opening leaves the others closed', async (t) => {
  const breakers = new RouteBreakers(SETTINGS);
  t.equal(breakers.of(opus), breakers.of(opus), 'the same breaker for the same model');
  breakers.of(opus).report(breakers.of(opus).allow(false), true);
  t.equal(breakers.of(opus).state, 'open');
  t.equal(breakers.of(sonnet).state, 'closed');
  t.same(breakers.states(), { [opus.id]: 'open', [sonnet.id]: 'closed' });
});

t.test('the number of breakers is bounded: past the cap, and without a model, routes share one', async (t) => {
  const breakers = new RouteBreakers(SETTINGS);
  t.equal(breakers.of(null).name, SHARED_ROUTE);
  for (let i = 0; i < MAX_ROUTES + 50; i++) breakers.of(modelNamed(`m-${i}`));
  t.equal(Object.keys(breakers.states()).length, MAX_ROUTES, 'the cap, the shared route included');
  t.equal(breakers.of(modelNamed('one-more')).name, SHARED_ROUTE);
});

t.test('a route named like an Object property is a plain entry', async (t) => {
  const breakers = new RouteBreakers(SETTINGS);
  breakers.of(modelNamed('__proto__'));
  t.same(Object.keys(breakers.states()), ['__proto__']);
  t.equal(JSON.parse(JSON.stringify(breakers.states())).__proto__, 'closed');
});
