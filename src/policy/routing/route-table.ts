// Every route of the gateway, with its state: the routes the models file configures, joined with the
// providers they name (a route naming no provider refuses the start), and for every other catalogue
// model (the defaults, the provider's live list) one route on the first provider, made the first time
// the model is asked for.
import type { CatalogModel } from '../../catalog/model.js';
import type { RouteSetting } from '../../catalog/model-routes.js';
import type { BreakerSettings } from '../../config/config.js';
import { ConfigError } from '../../config/config-error.js';
import type { ModelPrices } from '../../metering/prices.js';
import type { Provider } from '../../providers/provider.js';
import { CircuitBreaker, type StateListener } from '../resilience/circuit-breaker.js';
import { makeRoute, type Route } from './route.js';
import { RouteState } from './route-state.js';

export interface RouteTableOptions {
  /** Every provider, the first being the one of models without routes. */
  readonly providers: readonly Provider[];
  /** True when the models file lists providers: routes are then named `<model>@<provider>`. */
  readonly named: boolean;
  /** Model id → its configured routes (as the models file gives them), with where they were read. */
  readonly configured: ReadonlyMap<string, { routes: readonly RouteSetting[]; where: string }>;
  readonly breaker: BreakerSettings;
  readonly onBreakerChange?: StateListener;
  readonly now?: () => number;
}

/** Routes made on first use beyond this many share the overflow route: a live list cannot grow the table without end. */
export const MAX_ROUTES = 256;

/** The name (and metric label) of the route shared by models past the cap. */
export const SHARED_ROUTE = 'other';

export class RouteTable {
  private readonly byModel = new Map<string, readonly RouteState[]>();
  private readonly byName = new Map<string, RouteState>();
  private readonly defaultProvider: Provider;
  private overflow: readonly RouteState[] | null = null;

  constructor(private readonly options: RouteTableOptions) {
    const first = options.providers[0];
    if (first === undefined) throw new Error('RouteTable: no provider');
    this.defaultProvider = first;
    const byId = new Map(options.providers.map((p) => [p.id, p]));
    for (const [model, { routes, where }] of options.configured) {
      const seen = new Set<string>();
      const states = routes.map((setting, i) => {
        const provider = byId.get(setting.provider);
        if (provider === undefined) {
          throw new ConfigError(`${where}.routes[${i}].provider: names "${setting.provider}", which is not among the providers (${[...byId.keys()].join(', ')})`);
        }
        if (seen.has(provider.id)) throw new ConfigError(`${where}.routes[${i}].provider: "${provider.id}" is already a route of this model`);
        seen.add(provider.id);
        return this.add({ model, provider, providerModel: setting.model, weight: setting.weight, priority: setting.priority, prices: setting.prices });
      });
      this.byModel.set(model, Object.freeze(states));
    }
  }

  /** The routes of a catalogue model. */
  routesOf(model: CatalogModel): readonly RouteState[] {
    const known = this.byModel.get(model.id);
    if (known !== undefined) return known;
    if (this.byName.size >= MAX_ROUTES) return (this.overflow ??= Object.freeze([this.made(SHARED_ROUTE, { model: SHARED_ROUTE, provider: this.defaultProvider, providerModel: null, weight: 1, priority: 1, prices: null })]));
    const states = Object.freeze([this.add({ model: model.id, provider: this.defaultProvider, providerModel: null, weight: 1, priority: 1, prices: null })]);
    this.byModel.set(model.id, states);
    return states;
  }

  /**
   * What each way of serving `model` charges (a route's own prices, else the model's), without making
   * a route: a model without configured routes is served by one route of the default provider, which
   * has no prices of its own. For the budget's reservation (policy/budgets/reservation-prices.ts).
   */
  servingPrices(model: CatalogModel): Array<ModelPrices | null> {
    const configured = this.byModel.get(model.id);
    if (configured === undefined) return [model.prices];
    return configured.map((state) => state.route.prices ?? model.prices);
  }

  /** A route by its name (a cool-down learned from another instance names it). */
  byRouteName(name: string): RouteState | undefined {
    return this.byName.get(name);
  }

  /** Every route made so far: the configured ones, and one per model asked for without routes. */
  all(): RouteState[] {
    return [...this.byName.values()];
  }

  private add(spec: Parameters<typeof makeRoute>[0]): RouteState {
    return this.made(this.options.named ? `${spec.model}@${spec.provider.id}` : spec.model, spec);
  }

  private made(name: string, spec: Parameters<typeof makeRoute>[0]): RouteState {
    const route = makeRoute(spec, name);
    const state = new RouteState(route, new CircuitBreaker(name, this.options.breaker, this.options.onBreakerChange, this.options.now));
    this.byName.set(name, state);
    return state;
  }
}

export type { Route };
