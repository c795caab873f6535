// The catalogue alone: the defaults, the models file's settings laid over them (and models it adds),
// the provider's live list replacing the ids while keeping what is known of each, aliases that never
// shadow a real id, the operator's price for unpriced models, and the last known list kept when a
// refresh fails or comes back empty.
import t from 'tap';
import { Catalogue, type CatalogueOptions } from '../../../src/catalog/catalogue.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_MODELS } from '../../../src/catalog/model.js';
import type { ModelInfo } from '../../../src/dialects/anthropic/wire.js';

const ids = DEFAULT_MODELS.map((m) => m.id);
const catalogue = (options: Partial<CatalogueOptions> = {}) => new Catalogue({ defaults: DEFAULT_MODELS, configured: [], fetchLive: null, refreshMs: 60_000, ...options });
const info = (id: string, extra: Partial<ModelInfo> = {}): ModelInfo => ({ type: 'model', id, display_name: id.toUpperCase(), created_at: '2026-10-01T00:00:00Z', ...extra });

t.test('the defaults alone: listed in order, resolved by id and by their aliases; anything else is unknown', async (t) => {
  const c = catalogue();
  t.same(c.list().map((m) => m.id), ids);
  t.same([...c.ids()], ids);
  for (const m of DEFAULT_MODELS) {
    t.same(c.resolve(m.id), m, m.id);
    for (const alias of m.aliases) t.equal(c.resolve(alias)?.id, m.id, `${alias} → ${m.id}`);
  }
  t.equal(c.resolve('gpt-4o'), null);
  t.equal(c.live, false);
  t.ok(Object.isFrozen(c.list()[0]), 'models are frozen: shared by every request');
});

t.test('models-file settings: laid over a default, or a new model with permissive defaults', async (t) => {
  const c = catalogue({
    configured: [
      { id: 'claude-opus-4-7', defaultMaxTokens: 8192, aliases: ['opus'], accepts: { temperature: true, topP: false, topK: true } },
      { id: 'claude-custom-1', aliases: ['custom'] },
    ],
  });
  const opus = c.resolve('opus');
  t.match(opus, { id: 'claude-opus-4-7', defaultMaxTokens: 8192, accepts: { temperature: true, topP: false, topK: true }, fallbacks: ['claude-sonnet-4-6'] });
  t.ok(opus?.prices !== null, 'its list prices kept');
  t.match(c.resolve('custom'), { id: 'claude-custom-1', displayName: 'claude-custom-1', defaultMaxTokens: DEFAULT_MAX_TOKENS, accepts: { temperature: true, topP: true, topK: true }, fallbacks: [], prices: null });
  t.same(c.list().map((m) => m.id), [...ids, 'claude-custom-1']);
});

t.test('an alias never shadows a real id', async (t) => {
  const c = catalogue({ configured: [{ id: 'claude-haiku-4-5-20251001', aliases: ['claude-sonnet-4-6'] }] });
  t.equal(c.resolve('claude-sonnet-4-6')?.id, 'claude-sonnet-4-6');
});

t.test('the live list replaces the ids, keeping what is known of each and configured settings', async (t) => {
  const c = catalogue({ fetchLive: async () => [info('claude-sonnet-4-6', { max_tokens: 32_000 }), info('claude-new-5')], configured: [{ id: 'claude-new-5', aliases: ['new'] }] });
  t.equal(await c.refresh(), true);
  t.equal(c.live, true);
  t.same(c.list().map((m) => m.id), ['claude-sonnet-4-6', 'claude-new-5']);
  const sonnet = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;
  t.match(c.resolve('claude-sonnet-4-6'), { displayName: 'CLAUDE-SONNET-4-6', maxOutputTokens: 32_000, prices: sonnet.prices, accepts: sonnet.accepts });
  t.match(c.resolve('new'), { id: 'claude-new-5', prices: null });
  t.equal(c.resolve('claude-opus-4-7'), null, 'a model the provider no longer lists is gone');
});

t.test('a refresh that fails or lists nothing keeps the last known list, and reports a failure', async (t) => {
  const errors: unknown[] = [];
  let answer: () => Promise<ModelInfo[]> = async () => [info('claude-new-5')];
  const c = catalogue({ fetchLive: () => answer(), onRefreshError: (err) => errors.push(err) });
  t.equal(await c.refresh(), true);
  answer = async () => {
    throw new Error('provider down');
  };
  t.equal(await c.refresh(), false);
  answer = async () => [];
  t.equal(await c.refresh(), false);
  t.same(c.list().map((m) => m.id), ['claude-new-5']);
  t.match(errors, [{ message: 'provider down' }]);
  t.equal(await catalogue().refresh(), false, 'no upstream to ask: nothing changes');
});

t.test('the operator\'s price for unpriced models: given to those without one, marked as such', async (t) => {
  const unpricedPrices = { input: 5, output: 9, cacheRead: 1, cacheWrite: 6 };
  const c = catalogue({ configured: [{ id: 'claude-custom-1' }], unpricedPrices });
  t.match(c.resolve('claude-custom-1'), { prices: unpricedPrices, pricedByDefault: true });
  t.notOk(c.resolve('claude-opus-4-7')?.pricedByDefault, 'a model with its own prices keeps them');
  t.same(c.unpricedPrices, unpricedPrices);
  t.equal(catalogue().unpricedPrices, null);
});
