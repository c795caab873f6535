// @ts-check
// The upstream providers and routes as tables, from a GET /routes answer (or the routes of GET /overview):
// weight, priority, whether a route is cooling down and until when, the headroom its provider last
// reported, its circuit breaker. Shown by the Routes page and the Overview alike.
import { h, notice } from './dom.js';
import { count } from './format.js';
import { dataTable } from './table.js';

/** What a route's state means to an operator. */
const STATE_TEXT = /** @type {Record<string, string>} */ ({ ready: 'ready', throttled: 'cooling down (throttled)', no_headroom: 'cooling down (no headroom)' });

/** A moment to the second, UTC. @param {string | null} iso */
export function untilText(iso) {
  if (iso === null) return '—';
  return h('time', { datetime: iso }, iso.slice(0, 19).replace('T', ' '));
}

/** The remaining counts the provider last reported, e.g. "requests 3 · tokens 40,000". @param {Record<string, number> | null} headroom */
function headroomText(headroom) {
  if (headroom === null) return 'not reported';
  return Object.entries(headroom).map(([kind, left]) => `${kind} ${count(left)}`).join(' · ');
}

/**
 * The hint of when it was read, a heading and table for the providers, one for the routes.
 * @param {any} view
 * @param {'h2' | 'h3'} heading the level of the two headings under the page's own
 */
export function routesTables(view, heading) {
  const providers = view.providers.map((/** @type {any} */ p) => [p.id, p.type, p.routes]);
  const routes = view.routes.map((/** @type {any} */ r) => [
    r.name,
    r.model,
    r.provider,
    r.weight,
    r.priority,
    STATE_TEXT[r.state] ?? r.state,
    untilText(r.coolingUntil),
    headroomText(r.headroom),
    r.circuit,
  ]);
  return [
    h('p', { class: 'hint' }, 'As of ', untilText(view.at), ' UTC on this instance.'),
    h(heading, { id: 'providers-heading' }, 'Providers'),
    dataTable('Providers', ['Provider', 'Type', 'Routes'], providers, { numeric: [2] }),
    h(heading, { id: 'routes-heading' }, 'Routes'),
    routes.length === 0
      ? notice('ok', 'No routes yet: a model without routes of its own gets one on its first request.')
      : dataTable('Routes', ['Route', 'Model', 'Provider', 'Weight', 'Priority', 'State', 'Cooling until (UTC)', 'Headroom', 'Breaker'], routes, { numeric: [3, 4] }),
  ];
}
