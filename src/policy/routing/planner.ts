// The order in which one request tries the routes of one model: the routes that can be used now,
// lowest priority first, and within a priority by weighted rendezvous score for the request's seed
// (rendezvous.ts): for a session the same order on every instance. A request without a session takes
// its first route by smooth weighted round robin (nginx's): over any run of requests each route's
// share is its weight's, to within one request, where random draws would stray by several per cent
// over a few hundred. A route
// cooling down (throttled, or out of headroom) is left out until its cool-down ends; the earliest
// end among them is the `retry-after` when nothing else can serve the request.
import { rendezvousScore } from './rendezvous.js';
import type { RouteState } from './route-state.js';

export interface RouteOrder {
  /** The routes that may be tried now, in the order to try them. */
  readonly usable: readonly RouteState[];
  /** The earliest end of a cool-down among the routes left out (epoch ms); null when none is cooling. */
  readonly earliestUntil: number | null;
}

/** `session`: the seed is a session's; otherwise the first route is the round robin's. */
export function orderRoutes(states: readonly RouteState[], seed: number, wallNow: number, session = true): RouteOrder {
  // One route (every model of a gateway without configured providers): nothing to order.
  if (states.length === 1) {
    const only = states[0]!;
    const cooling = only.coolingAt(wallNow);
    return cooling === null ? { usable: states, earliestUntil: null } : { usable: [], earliestUntil: cooling.until };
  }
  const usable: Array<{ state: RouteState; score: number }> = [];
  let earliestUntil: number | null = null;
  for (const state of states) {
    const cooling = state.coolingAt(wallNow);
    if (cooling !== null) {
      earliestUntil = earliestUntil === null ? cooling.until : Math.min(earliestUntil, cooling.until);
      continue;
    }
    const route = state.route;
    usable.push({ state, score: rendezvousScore(seed, route.hash, route.weight) });
  }
  usable.sort((a, b) => a.state.route.priority - b.state.route.priority || a.score - b.score);
  const order = usable.map((u) => u.state);
  if (!session && order.length > 1) roundRobinFirst(order);
  return { usable: order, earliestUntil };
}

/** Moves the smooth weighted round robin's pick among the first priority's routes to the front. */
function roundRobinFirst(order: RouteState[]): void {
  const priority = order[0]!.route.priority;
  let total = 0;
  let best = 0;
  for (let i = 0; i < order.length && order[i]!.route.priority === priority; i++) {
    const state = order[i]!;
    state.credit += state.route.weight;
    total += state.route.weight;
    if (state.credit > order[best]!.credit) best = i;
  }
  const chosen = order[best]!;
  chosen.credit -= total;
  if (best > 0) {
    order.splice(best, 1);
    order.unshift(chosen);
  }
}
