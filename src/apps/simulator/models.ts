// The simulator's model list: lookup (with aliases), the provider's pagination, and which
// models take only the default sampling settings.
import { DEFAULT_MODELS } from '../../catalog/model.js';
import type { ModelInfo, ModelsPage } from '../../dialects/anthropic/wire.js';
import type { ApiFailure } from './types.js';

export function defaultModelInfos(): ModelInfo[] {
  return DEFAULT_MODELS.map((m) => ({
    type: 'model',
    id: m.id,
    display_name: m.displayName,
    created_at: m.createdAt,
    max_input_tokens: 200000,
    max_tokens: m.maxOutputTokens,
    capabilities: null,
  }));
}

/** Aliases the provider resolves for the default models (e.g. an undated id). */
const DEFAULT_ALIASES: ReadonlyMap<string, string> = new Map(
  DEFAULT_MODELS.flatMap((m) => m.aliases.map((alias): [string, string] => [alias, m.id])),
);

/** Built once per models list; requests only read it. */
export interface ModelIndex {
  /** Newest first, as the provider lists them. */
  readonly ordered: readonly ModelInfo[];
  find(id: string): ModelInfo | undefined;
}

export function buildModelIndex(models: readonly ModelInfo[]): ModelIndex {
  const ordered = [...models].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  const byId = new Map(ordered.map((m) => [m.id, m]));
  for (const [alias, id] of DEFAULT_ALIASES) {
    const target = byId.get(id);
    if (target && !byId.has(alias)) byId.set(alias, target);
  }
  return { ordered, find: (id) => byId.get(id) };
}

// Models released after Opus 4.6 accept only the default temperature, no top_k and top_p >= 0.99
// (docs/wire.md). The version in the id decides, so a newer model added by a test follows the rule.
const FAMILY_VERSION = /^claude-(?:opus|sonnet|haiku)-(\d+)-(\d+)(?:-|$)/;

export function takesOnlyDefaultSampling(modelId: string): boolean {
  const m = FAMILY_VERSION.exec(modelId);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  // A dated suffix such as -20251001 is not a minor version.
  if (minor > 99) return false;
  return major > 4 || (major === 4 && minor > 6);
}

export interface PageQuery {
  limit: number;
  afterId: string | null;
  beforeId: string | null;
}

function invalid(message: string): ApiFailure {
  return { status: 400, type: 'invalid_request_error', message };
}

/** Reads `limit`, `after_id`, `before_id` from a query string the way the provider does. */
export function parsePageQuery(search: URLSearchParams): PageQuery | ApiFailure {
  const rawLimit = search.get('limit');
  let limit = 20;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit)) return invalid('limit: Input should be a valid integer, unable to parse string as an integer');
    limit = Number(rawLimit);
    if (limit < 1) return invalid('limit: Input should be greater than or equal to 1');
    if (limit > 1000) return invalid('limit: Input should be less than or equal to 1000');
  }
  return { limit, afterId: search.get('after_id'), beforeId: search.get('before_id') };
}

/** One page of the list: after_id pages forwards, before_id backwards (the items just before it). */
export function pageModels(ordered: readonly ModelInfo[], q: PageQuery): ModelsPage {
  let start = 0;
  let end = ordered.length;
  if (q.afterId !== null) {
    const i = ordered.findIndex((m) => m.id === q.afterId);
    start = i < 0 ? ordered.length : i + 1;
    end = Math.min(ordered.length, start + q.limit);
  } else if (q.beforeId !== null) {
    const i = ordered.findIndex((m) => m.id === q.beforeId);
    end = i < 0 ? 0 : i;
    start = Math.max(0, end - q.limit);
  } else {
    end = Math.min(ordered.length, q.limit);
  }
  const data = ordered.slice(start, end);
  const hasMore = q.beforeId !== null ? start > 0 : end < ordered.length;
  return {
    data,
    has_more: hasMore,
    first_id: data.length > 0 ? data[0].id : null,
    last_id: data.length > 0 ? data[data.length - 1].id : null,
  };
}
