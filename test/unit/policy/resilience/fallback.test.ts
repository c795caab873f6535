import t from 'tap';
import type { CatalogModel } from '../../../../src/catalog/model.js';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import type { Principal } from '../../../../src/keys/principal.js';
import { fallbacksOf } from '../../../../src/policy/resilience/fallback.js';

const byId = new Map<string, CatalogModel>(DEFAULT_MODELS.map((m) => [m.id, m]));
const opus = { ...byId.get('claude-opus-4-7')!, fallbacks: ['claude-sonnet-4-6', 'nope', 'claude-opus-4-7', 'claude-haiku-4-5', 'claude-sonnet-4-6'] };
byId.set('claude-haiku-4-5', byId.get('claude-haiku-4-5-20251001')!);
const catalogue = { resolve: (name: string) => byId.get(name) ?? null };
const keyFor = (models: string[]): Principal => ({ keyId: 'k', customerId: 'c', customerName: 'c', allowedModels: new Set(models), rpm: null, tpm: null, customerLimits: null, keyBudget: null, customerBudget: null });

t.test('fallbacksOf: known, allowed, not the model itself, each once, in order', async (t) => {
  t.same(fallbacksOf(opus, catalogue, null).map((m) => m.id), ['claude-sonnet-4-6', 'claude-haiku-4-5-20251001']);
  t.same(fallbacksOf(opus, catalogue, keyFor(['claude-opus-4-7', 'claude-haiku-4-5-20251001'])).map((m) => m.id), ['claude-haiku-4-5-20251001']);
  t.same(fallbacksOf(byId.get('claude-sonnet-4-6')!, catalogue, null), []);
});
