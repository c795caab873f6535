// The models lists: the chat surface's OpenAI list shape and the messages surface's provider shape,
// each holding only the models the calling key may use.
import type { CatalogModel } from '../../../catalog/model.js';
import { endJson } from '../../../lib/json-response.js';
import type { Stage } from '../../compose.js';
import type { Runtime } from '../../runtime.js';
import type { ModelsPage } from '../../../dialects/anthropic/wire.js';
import type { ModelList } from '../../../dialects/openai/wire.js';
import type { RequestContext } from '../../context.js';
import { mayUseModel } from '../../../keys/principal.js';

export function listModelsStage(rt: Runtime, shape: 'openai' | 'provider'): Stage {
  return async (ctx) => {
    const models = visibleModels(rt.catalogue.list(), ctx);
    endJson(ctx.res, 200, JSON.stringify(shape === 'openai' ? openAiList(models) : providerList(models)), ctx.headers);
  };
}

function visibleModels(all: readonly CatalogModel[], ctx: RequestContext): CatalogModel[] {
  const { principal } = ctx;
  return all.filter((m) => mayUseModel(principal, m.id));
}

function openAiList(models: CatalogModel[]): ModelList {
  return {
    object: 'list',
    data: models.map((m) => ({ id: m.id, object: 'model', created: Math.floor(Date.parse(m.createdAt) / 1000) || 0, owned_by: 'anthropic' })),
  };
}

function providerList(models: CatalogModel[]): ModelsPage {
  return {
    data: models.map((m) => ({ type: 'model', id: m.id, display_name: m.displayName, created_at: m.createdAt, max_tokens: m.maxOutputTokens })),
    has_more: false,
    first_id: models[0]?.id ?? null,
    last_id: models[models.length - 1]?.id ?? null,
  };
}
