import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Catalogue } from '../../../src/catalog/catalogue.js';
import { modelsFileSettings } from '../../../src/catalog/load-models-file.js';
import { readModelsFile } from '../../../src/config/models-file.js';

const loadModelsFile = (path: string) => modelsFileSettings(readModelsFile(path)).models;
import { DEFAULT_MODELS } from '../../../src/catalog/model.js';
import { LIST_PRICES } from '../../../src/metering/list-prices.js';

function modelsFile(t: Test, body: unknown): string {
  const path = join(t.testdir(), 'models.json');
  writeFileSync(path, JSON.stringify(body));
  return path;
}

t.test('the models file sets, overrides and removes prices; live-only models have none', async (t) => {
  const path = modelsFile(t, {
    models: [
      { id: 'claude-sonnet-4-6', prices: { input: '2.5', output: 12, cacheWrite: '3.125', cacheRead: '0.25' } },
      { id: 'claude-haiku-4-5-20251001', prices: null },
      { id: 'my-finetune', displayName: 'Mine', prices: { input: '0.8', output: '4', cacheWrite: '1', cacheRead: '0.08' } },
      { id: 'claude-opus-4-7', defaultMaxTokens: 8192 },
    ],
  });
  const live = [...DEFAULT_MODELS.map((m) => ({ type: 'model' as const, id: m.id, display_name: m.displayName, created_at: m.createdAt })), { type: 'model' as const, id: 'claude-new-9', display_name: 'New', created_at: '2030-01-01T00:00:00Z' }];
  const catalogue = new Catalogue({ defaults: DEFAULT_MODELS, configured: loadModelsFile(path), fetchLive: async () => live, refreshMs: 60_000 });
  t.teardown(() => catalogue.close());
  for (const refreshed of [false, true]) {
    if (refreshed) t.ok(await catalogue.refresh());
    t.same(catalogue.resolve('claude-sonnet-4-6')?.prices, { input: 2500, output: 12000, cacheWrite: 3125, cacheRead: 250 });
    t.equal(catalogue.resolve('claude-haiku-4-5')?.prices, null, 'null in the file: unpriced');
    t.same(catalogue.resolve('my-finetune')?.prices, { input: 800, output: 4000, cacheWrite: 1000, cacheRead: 80 });
    t.same(catalogue.resolve('claude-opus-4-7')?.prices, LIST_PRICES['claude-opus-4-7'], 'other settings keep the default prices');
    t.equal(catalogue.resolve('claude-opus-4-7')?.defaultMaxTokens, 8192);
  }
  t.equal(catalogue.resolve('claude-new-9')?.prices, null, 'a model only the live list knows has no price');
});

t.test('a bad price stops the start with the file, the entry and the field named', async (t) => {
  const cases: Array<[unknown, RegExp]> = [
    [{ input: '3', output: '15' }, /models\[0\]\.prices is missing cacheWrite, cacheRead/],
    [{ input: '3', output: '15', cacheWrite: '3.75', cacheRead: '0.3001' }, /models\[0\]\.prices\.cacheRead must be USD per million tokens/],
    [{ input: -3, output: '15', cacheWrite: '3.75', cacheRead: '0.3' }, /models\[0\]\.prices\.input/],
    ['3', /models\[0\]\.prices must be an object/],
  ];
  for (const [prices, message] of cases) {
    const path = modelsFile(t, { models: [{ id: 'claude-sonnet-4-6', prices }] });
    t.throws(() => loadModelsFile(path), { message }, JSON.stringify(prices));
    t.throws(() => loadModelsFile(path), { message: new RegExp(path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')) });
  }
});
