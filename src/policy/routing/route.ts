// A route: one way to serve a catalogue model, through one provider (an account, a cloud region),
// under the provider's own id for the model, with a weight among the routes of its priority and
// optionally prices of its own. A model has one route or several; a request tries them in the
// order the planner gives (planner.ts), each try an attempt.
import type { ModelPrices } from '../../metering/prices.js';
import type { Provider } from '../../providers/provider.js';
import { hashString } from './rendezvous.js';

export interface Route extends RouteSpec {
  /**
   * Unique among the gateway's routes, the `route` of metrics, logs and /readyz. A gateway
   * without configured providers keeps one route per model named by the model alone (what its
   * circuit breaker was always called); with providers a route is `<model>@<provider id>`.
   */
  readonly name: string;
  /** hashString(name): the route's part of every rendezvous score. */
  readonly hash: number;
}

/** What the models file (or the implicit provider) says of a route. */
export interface RouteSpec {
  /** The catalogue model it serves. */
  readonly model: string;
  readonly provider: Provider;
  /** The provider's id for the model; null: the request's own model name goes as it came. */
  readonly providerModel: string | null;
  readonly weight: number;
  /** Lower is tried first; higher priorities only when no route of a lower one can be used. */
  readonly priority: number;
  /** What its tokens cost when they differ from the model's (a regional endpoint); null: the model's. */
  readonly prices: ModelPrices | null;
}

export function makeRoute(spec: RouteSpec, name: string): Route {
  return Object.freeze({ ...spec, name, hash: hashString(name) });
}
