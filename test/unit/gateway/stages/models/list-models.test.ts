// The list-models stage alone, on a real server: reads the catalogue and the key's allowed models,
// writes nothing to the context, answers 200 with the models the key may use, in the OpenAI list shape
// (the chat surface) or the provider's models page (the messages surface), with the collected headers.
import t from 'tap';
import { listModelsStage } from '../../../../../src/gateway/stages/models/list-models.js';
import { Catalogue } from '../../../../../src/catalog/catalogue.js';
import { DEFAULT_MODELS } from '../../../../../src/catalog/model.js';
import type { ModelsPage } from '../../../../../src/dialects/anthropic/wire.js';
import type { ModelList } from '../../../../../src/dialects/openai/wire.js';
import type { RequestContext } from '../../../../../src/gateway/context.js';
import { principal, runtimeWith, stageServer } from '../stage-context.js';

const catalogue = new Catalogue({ defaults: DEFAULT_MODELS, configured: [], fetchLive: null, refreshMs: 60_000 });
const rt = runtimeWith({ catalogue });
const ids = DEFAULT_MODELS.map((m) => m.id);
const sonnet = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;

const allowing = (allowed: string[] | null) => (ctx: RequestContext) => {
  ctx.principal = principal({ allowedModels: allowed === null ? null : new Set(allowed) });
  ctx.headers['x-request-id'] = ctx.id;
};

t.test('the OpenAI list: every model a key without a model list may use', async (t) => {
  const server = await stageServer(t, listModelsStage(rt, 'openai'), { name: '/openai/v1/models', surface: 'models', errorFormat: 'chat' });
  const { response, thrown } = await server.ask({}, allowing(null));
  t.equal(thrown, null);
  t.equal(response.status, 200);
  t.equal(response.headers['content-type'], 'application/json');
  t.equal(response.headers['x-request-id'], 'req-1', 'the collected headers go out');
  const list = response.json<ModelList>();
  t.equal(list.object, 'list');
  t.same(list.data.map((m) => m.id), ids);
  t.same(list.data.find((m) => m.id === sonnet.id), { id: sonnet.id, object: 'model', created: Date.parse(sonnet.createdAt) / 1000, owned_by: 'anthropic' });
});

t.test('the provider page: the same models in the provider shape, first and last named', async (t) => {
  const server = await stageServer(t, listModelsStage(rt, 'provider'), { name: '/v1/models', surface: 'models' });
  const page = (await server.ask({}, allowing(null))).response.json<ModelsPage>();
  t.same(page.data.map((m) => m.id), ids);
  t.same(page.data.find((m) => m.id === sonnet.id), { type: 'model', id: sonnet.id, display_name: sonnet.displayName, created_at: sonnet.createdAt, max_tokens: sonnet.maxOutputTokens });
  t.same([page.has_more, page.first_id, page.last_id], [false, ids[0], ids[ids.length - 1]]);
});

t.test('a key with a model list sees only those models, in both shapes; an empty list is an empty page', async (t) => {
  const openai = await stageServer(t, listModelsStage(rt, 'openai'), { name: '/openai/v1/models' });
  const provider = await stageServer(t, listModelsStage(rt, 'provider'), { name: '/v1/models' });
  const cases: Array<[string, string[], string[]]> = [
    ['one model', [sonnet.id], [sonnet.id]],
    ['a model not in the catalogue is not invented', [sonnet.id, 'gpt-4o'], [sonnet.id]],
    ['none', [], []],
  ];
  for (const [name, allowed, seen] of cases) {
    t.same((await openai.ask({}, allowing(allowed))).response.json<ModelList>().data.map((m) => m.id), seen, `${name}: openai`);
    const page = (await provider.ask({}, allowing(allowed))).response.json<ModelsPage>();
    t.same(page.data.map((m) => m.id), seen, `${name}: provider`);
    t.same([page.first_id, page.last_id], [seen[0] ?? null, seen[seen.length - 1] ?? null], `${name}: first and last`);
  }
});
