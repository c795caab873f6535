// The circuit breakers of one process, one per model route: a provider overloads one model while the
// others answer, so one model's failures must not stop another's requests. Routes are catalogue
// models (a client's model name was resolved against the catalogue before any upstream call), so
// their number is the catalogue's; a cap still bounds it should a live list ever grow without end.
import type { BreakerSettings } from '../../config/config.js';
import type { CatalogModel } from '../../catalog/model.js';
import { CircuitBreaker, type CircuitState, type StateListener } from './circuit-breaker.js';

/** Breakers beyond this many share the overflow route, as do calls without a catalogue model. */
export const MAX_ROUTES = 256;

/** The route name (and metric label) shared by calls without a model of their own. */
export const SHARED_ROUTE = 'other';

export class RouteBreakers {
  private readonly byRoute = new Map<string, CircuitBreaker>();

  constructor(
    private readonly settings: BreakerSettings,
    private readonly onChange: StateListener = () => {},
    private readonly now?: () => number,
  ) {}

  /** The breaker of the route to `model`, made on first use. */
  of(model: CatalogModel | null): CircuitBreaker {
    const name = model?.id ?? SHARED_ROUTE;
    const known = this.byRoute.get(name);
    if (known !== undefined) return known;
    return this.add(this.byRoute.size < MAX_ROUTES ? name : SHARED_ROUTE);
  }

  /** Route → state, for every route that has carried a call since the process started. */
  states(): Record<string, CircuitState> {
    // No prototype: a route named like an Object property stays a plain entry.
    const out: Record<string, CircuitState> = Object.create(null);
    for (const [name, breaker] of this.byRoute) out[name] = breaker.state;
    return out;
  }

  private add(name: string): CircuitBreaker {
    let breaker = this.byRoute.get(name);
    if (breaker === undefined) {
      breaker = new CircuitBreaker(name, this.settings, this.onChange, this.now);
      this.byRoute.set(name, breaker);
    }
    return breaker;
  }
}
