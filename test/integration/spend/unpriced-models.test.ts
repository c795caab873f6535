// Finding N1: a model without a price reserved and cost 0, so a key with a $0.01 hard budget took any
// amount of it. Now a hard budget (the key's or its customer's) refuses such a model with 403 in the
// surface's shape, before anything goes upstream; a soft one serves it and flags it; the operator's
// default price for unpriced models (the models file's `unpricedModels`) prices it and lifts the refusal.
// The models list of the admin API says which models are priced by that default.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ADMIN_TOKEN, startHarness, type Harness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { defaultModelInfos } from '../../../src/apps/simulator/models.js';
import { readModelsFile } from '../../../src/config/models-file.js';
import { modelsFileSettings } from '../../../src/catalog/load-models-file.js';

// A model only the provider's live list names: the catalogue has no price for it.
const LIVE_ONLY = 'claude-live-only-1';
const DOLLAR = 1_000_000_000;
const messages = (model: string) => JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
const chat = (model: string) => JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

async function gateway(t: Test, file: object | null): Promise<Harness> {
  const env: Record<string, string> = {};
  if (file !== null) {
    env.GATEWAY_MODELS_FILE = join(t.testdir(), 'models.json');
    writeFileSync(env.GATEWAY_MODELS_FILE, JSON.stringify(file));
  }
  const models = [...defaultModelInfos(), { type: 'model' as const, id: LIVE_ONLY, display_name: 'Live only', created_at: '2026-01-01T00:00:00Z', max_tokens: 64000 }];
  const h = await startHarness({ env, simulator: { models } });
  t.teardown(() => h.close());
  return h;
}

const posts = (h: Harness) => h.simulator.received.filter((r) => r.method === 'POST').length;

t.test('a hard budget refuses an unpriced model on both surfaces; a soft one flags it; no budget passes', async (t) => {
  const h = await gateway(t, null);
  t.ok(h.runtime.catalogue.resolve(LIVE_ONLY), 'the live list brought the model in');
  t.equal(h.runtime.catalogue.resolve(LIVE_ONLY)!.prices, null, 'without a price');
  const hard = await h.createKey({ budget: { amountNanoUsd: DOLLAR / 100, period: 'month', mode: 'hard' } });
  const before = posts(h);

  const m = await call(`${h.url}/gateway/v1/messages`, { body: messages(LIVE_ONLY), headers: bearer(hard.key) });
  t.equal(m.status, 403, m.text);
  t.equal(m.json().type, 'error');
  t.equal(m.json().error.type, 'permission_error');
  t.match(m.json().error.message, /"claude-live-only-1" has no price/);

  const c = await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: chat(LIVE_ONLY), headers: bearer(hard.key) });
  t.equal(c.status, 403, c.text);
  t.match(c.json().error, { type: 'permission_denied', code: 'model_not_priced', param: 'model' });
  t.equal(posts(h), before, 'nothing went upstream');

  const priced = await call(`${h.url}/gateway/v1/messages`, { body: messages('claude-sonnet-4-6'), headers: bearer(hard.key) });
  t.equal(priced.status, 200, 'a priced model is served under the same budget');

  // The customer's hard budget refuses too, for a key without a budget of its own.
  const other = await h.createKey({ customer: 'capped' });
  const capped = await h.built.stores.keys.getCustomerByName('capped');
  await h.built.stores.keys.setCustomerBudget(capped!.id, { amountNanoUsd: DOLLAR, period: 'month', mode: 'hard' });
  await h.runtime.keys.refresh();
  const byCustomer = await call(`${h.url}/gateway/v1/messages`, { body: messages(LIVE_ONLY), headers: bearer(other.key) });
  t.equal(byCustomer.status, 403, byCustomer.text);

  const soft = await h.createKey({ budget: { amountNanoUsd: DOLLAR / 100, period: 'month', mode: 'soft' } });
  const flagged = await call(`${h.url}/gateway/v1/messages`, { body: messages(LIVE_ONLY), headers: bearer(soft.key) });
  t.equal(flagged.status, 200, 'a soft budget serves it');
  const { body: metrics } = await h.runtime.metrics.render();
  t.match(metrics, /model_gateway_budget_exceeded_requests_total\{scope="key",action="flagged"\} 1/, 'and flags it');

  const free = await h.createKey({ customer: 'free' });
  t.equal((await call(`${h.url}/gateway/v1/messages`, { body: messages(LIVE_ONLY), headers: bearer(free.key) })).status, 200, 'no budget: served (counted at zero and flagged as unpriced)');

  const view = await call(`${h.url}/admin/api/models`, { method: 'GET', headers: bearer(ADMIN_TOKEN) });
  t.equal(view.status, 200, view.text);
  t.match(view.json().models.find((x: { id: string }) => x.id === LIVE_ONLY), { priced: false, pricedByDefault: false, prices: null });
  t.same(view.json().unpricedModels, { prices: null });
});

t.test("the operator's default price for unpriced models prices them, and a hard budget then counts them", async (t) => {
  const h = await gateway(t, { unpricedModels: { prices: { input: '10', output: '50', cacheWrite: '12.5', cacheRead: '1' } } });
  const model = h.runtime.catalogue.resolve(LIVE_ONLY)!;
  t.same(model.prices, { input: 10_000, output: 50_000, cacheWrite: 12_500, cacheRead: 1000 });
  t.equal(model.pricedByDefault, true);
  t.notOk(h.runtime.catalogue.resolve('claude-sonnet-4-6')!.pricedByDefault, 'a model with its own price keeps it');

  const amount = DOLLAR / 100;
  const { key } = await h.createKey({ budget: { amountNanoUsd: amount, period: 'month', mode: 'hard' } });
  const body = messages(LIVE_ONLY);
  const served = await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) });
  t.equal(served.status, 200, served.text);
  const reserve = 16 * 50_000 + Math.ceil(Buffer.byteLength(body) / 4) * 10_000;
  t.ok(Number(served.headers['x-gateway-budget-remaining']) * DOLLAR <= amount - reserve + 1, 'the reservation is priced at the default price');

  const view = await call(`${h.url}/admin/api/models`, { method: 'GET', headers: bearer(ADMIN_TOKEN) });
  t.match(view.json().models.find((x: { id: string }) => x.id === LIVE_ONLY), { priced: true, pricedByDefault: true, prices: { input: '10', output: '50' } });
  t.same(view.json().unpricedModels, { prices: { input: '10', output: '50', cacheWrite: '12.5', cacheWrite1h: '20', cacheRead: '1', webSearch: '0' } });
});

t.test('a bad unpricedModels setting stops the start with the file and field named', async (t) => {
  const path = join(t.testdir(), 'models.json');
  const settings = (file: object) => {
    writeFileSync(path, JSON.stringify(file));
    return () => modelsFileSettings(readModelsFile(path));
  };
  t.throws(settings({ unpricedModels: { prices: { input: '1', output: '5' } } }), /unpricedModels\.prices is missing cacheWrite, cacheRead/);
  t.throws(settings({ unpricedModels: { price: {} } }), /unpricedModels has unknown field\(s\) price/);
  t.throws(settings({ unpricedModels: { prices: null } }), /unpricedModels\.prices must be an object/);
  t.equal(settings({})().unpricedPrices, null, 'absent: unpriced models stay unpriced');
});
