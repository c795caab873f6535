import t from 'tap';
import type { CatalogModel } from '../../../src/catalog/model.js';
import { DEFAULT_MODELS } from '../../../src/catalog/model.js';
import type { Principal } from '../../../src/keys/principal.js';
import { fallbacksOf, readdressed } from '../../../src/resilience/fallback.js';

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

t.test('readdressed: model replaced, unaccepted sampling fields left out, the rest kept', async (t) => {
  const sonnet = byId.get('claude-sonnet-4-6')!;
  const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 5, temperature: 0.3, top_p: 0.9, top_k: 4, messages: [{ role: 'user', content: 'x' }] });
  const req = { method: 'POST' as const, path: '/v1/messages', headers: { a: 'b' }, body: Buffer.from(body) };
  const toOpus = readdressed(req, byId.get('claude-opus-4-7')!);
  t.same(JSON.parse(String(toOpus?.body)), { model: 'claude-opus-4-7', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
  t.same(toOpus?.headers, { a: 'b' });
  const toSonnet = readdressed({ ...req, body }, sonnet);
  t.same(JSON.parse(String(toSonnet?.body)).temperature, 0.3, 'accepted fields stay');
});

t.test('readdressed: a body it cannot rewrite gives null', async (t) => {
  const sonnet = byId.get('claude-sonnet-4-6')!;
  const base = { method: 'POST' as const, path: '/v1/messages', headers: {} };
  t.equal(readdressed({ ...base, body: 'not json' }, sonnet), null);
  t.equal(readdressed({ ...base, body: '[1]' }, sonnet), null);
});

t.test('a __proto__ key stays data', async (t) => {
  const sonnet = byId.get('claude-sonnet-4-6')!;
  const out = readdressed({ method: 'POST', path: '/v1/messages', headers: {}, body: '{"__proto__":{"polluted":1},"model":"x"}' }, sonnet);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.match(String(out?.body), /"__proto__":\{"polluted":1\}/);
});
