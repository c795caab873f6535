// The model catalogue: defaults and config-file settings, with the id list refreshed from the
// provider's own models list (docs/contract.md, "Default models"). The last known list stands when a
// refresh fails.
import type { ModelInfo } from '../dialects/anthropic/wire.js';
import type { CatalogModel } from './model.js';
import { DEFAULT_MAX_TOKENS } from './model.js';
import type { ModelPrices } from '../metering/prices.js';

export type ModelSettings = Partial<Omit<CatalogModel, 'id'>> & { id: string };

export interface CatalogueOptions {
  defaults: readonly CatalogModel[];
  /** Entries from the config file: add models or override settings of listed ones. */
  configured: readonly ModelSettings[];
  /** Reads the provider's list; null when there is no upstream to ask. */
  fetchLive: (() => Promise<ModelInfo[]>) | null;
  refreshMs: number;
  /** The price of every model that has none of its own (the models file's `unpricedModels`); absent: such models stay unpriced. */
  unpricedPrices?: ModelPrices | null;
  onRefreshError?: (err: unknown) => void;
}

export class Catalogue {
  private byName = new Map<string, CatalogModel>();
  private models: readonly CatalogModel[] = [];
  private idSet: ReadonlySet<string> = new Set();
  private timer: NodeJS.Timeout | null = null;
  private lastLive: readonly ModelInfo[] | null = null;

  constructor(private readonly options: CatalogueOptions) {
    this.rebuild(null);
  }

  resolve(name: string): CatalogModel | null {
    return this.byName.get(name) ?? null;
  }

  list(): readonly CatalogModel[] {
    return this.models;
  }

  ids(): ReadonlySet<string> {
    return this.idSet;
  }

  /** The operator's price for models without one (null: such models stay unpriced, refused under hard budgets). */
  get unpricedPrices(): ModelPrices | null {
    return this.options.unpricedPrices ?? null;
  }

  /** True when the list came from the provider at least once. */
  get live(): boolean {
    return this.lastLive !== null;
  }

  async start(): Promise<void> {
    await this.refresh();
    if (this.options.fetchLive !== null) {
      this.timer = setInterval(() => void this.refresh(), this.options.refreshMs);
      this.timer.unref();
    }
  }

  async refresh(): Promise<boolean> {
    if (this.options.fetchLive === null) return false;
    try {
      const live = await this.options.fetchLive();
      if (live.length === 0) return false;
      this.lastLive = live;
      this.rebuild(live);
      return true;
    } catch (err) {
      this.options.onRefreshError?.(err);
      return false;
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private rebuild(live: readonly ModelInfo[] | null): void {
    const known = new Map(this.options.defaults.map((m) => [m.id, m]));
    const entries = new Map<string, CatalogModel>();
    const base = live ?? this.options.defaults.map(asModelInfo);
    for (const info of base) entries.set(info.id, fromLive(info, known.get(info.id)));
    for (const settings of this.options.configured) {
      const current = entries.get(settings.id) ?? fromLive(asModelInfo(settingsAsModel(settings)), known.get(settings.id));
      entries.set(settings.id, { ...current, ...settings, accepts: { ...current.accepts, ...settings.accepts } });
    }
    const unpriced = this.options.unpricedPrices ?? null;
    if (unpriced !== null) {
      for (const [id, model] of entries) if (model.prices === null) entries.set(id, { ...model, prices: unpriced, pricedByDefault: true });
    }
    const byName = new Map<string, CatalogModel>();
    for (const model of entries.values()) {
      Object.freeze(model);
      byName.set(model.id, model);
    }
    for (const model of entries.values()) for (const alias of model.aliases) if (!byName.has(alias)) byName.set(alias, model);
    this.byName = byName;
    this.models = Object.freeze([...entries.values()]);
    this.idSet = new Set(entries.keys());
  }
}

function asModelInfo(m: CatalogModel): ModelInfo {
  return { type: 'model', id: m.id, display_name: m.displayName, created_at: m.createdAt, max_tokens: m.maxOutputTokens };
}

function settingsAsModel(s: ModelSettings): CatalogModel {
  return fromLive({ type: 'model', id: s.id, display_name: s.displayName ?? s.id, created_at: s.createdAt ?? new Date(0).toISOString() }, undefined);
}

/** A provider list entry, with the settings we already know for that id (or permissive defaults). */
function fromLive(info: ModelInfo, known: CatalogModel | undefined): CatalogModel {
  return {
    id: info.id,
    displayName: info.display_name || known?.displayName || info.id,
    createdAt: info.created_at || known?.createdAt || new Date(0).toISOString(),
    defaultMaxTokens: known?.defaultMaxTokens ?? DEFAULT_MAX_TOKENS,
    maxOutputTokens: info.max_tokens ?? known?.maxOutputTokens ?? null,
    accepts: known?.accepts ?? { temperature: true, topP: true, topK: true },
    fallbacks: known?.fallbacks ?? [],
    aliases: known?.aliases ?? [],
    prices: known?.prices ?? null,
  };
}
