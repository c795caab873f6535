// A route's state as operators read it (/readyz, the admin API, the dashboard): where it goes, its
// weight and priority, its circuit, whether it is cooling down and why, the headroom its provider
// last reported. Never a credential.
import type { RouteState } from './route-state.js';

export interface RouteView {
  name: string;
  model: string;
  provider: string;
  type: string;
  providerModel: string | null;
  weight: number;
  priority: number;
  circuit: string;
  /** 'ready', or why it is left out: 'throttled', 'no_headroom'. */
  state: 'ready' | 'throttled' | 'no_headroom';
  /** ISO time its cool-down ends, when cooling. */
  coolingUntil: string | null;
  /** The provider's last reported remaining counts (requests, tokens, …). */
  headroom: Record<string, number> | null;
}

export function routeView(state: RouteState, wallNow: number): RouteView {
  const { route } = state;
  const cooling = state.coolingAt(wallNow);
  return {
    name: route.name,
    model: route.model,
    provider: route.provider.id,
    type: route.provider.type,
    providerModel: route.providerModel,
    weight: route.weight,
    priority: route.priority,
    circuit: state.breaker.state,
    state: cooling === null ? 'ready' : cooling.reason,
    coolingUntil: cooling === null ? null : new Date(cooling.until).toISOString(),
    headroom: state.headroom === null ? null : { ...state.headroom.remaining },
  };
}
