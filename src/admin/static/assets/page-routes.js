// @ts-check
// Routes (operators): the upstream providers and every route with its state now, as this instance sees
// it (cool-downs learned from the rest of the fleet included): weight, priority, whether it is cooling
// down and until when, the headroom its provider last reported, its circuit breaker. Refresh reads again.
import { api } from './api.js';
import { h, notice, replace } from './dom.js';
import { count } from './format.js';
import { dataTable } from './table.js';

/** What a route's state means to an operator. */
const STATE_TEXT = /** @type {Record<string, string>} */ ({ ready: 'ready', throttled: 'cooling down (throttled)', no_headroom: 'cooling down (no headroom)' });

/** A moment to the second, UTC. @param {string | null} iso */
function until(iso) {
  if (iso === null) return '—';
  return h('time', { datetime: iso }, iso.slice(0, 19).replace('T', ' '));
}

/** The remaining counts the provider last reported, e.g. "requests 3 · tokens 40,000". @param {Record<string, number> | null} headroom */
function headroomText(headroom) {
  if (headroom === null) return 'not reported';
  return Object.entries(headroom).map(([kind, left]) => `${kind} ${count(left)}`).join(' · ');
}

/** @param {import('./app.js').PageContext} ctx */
export async function routesPage(ctx) {
  const area = h('div', {});
  async function refresh() {
    const view = await api('GET', '/routes');
    const providers = view.providers.map((/** @type {any} */ p) => [p.id, p.type, p.routes]);
    const routes = view.routes.map((/** @type {any} */ r) => [
      r.name,
      r.model,
      r.provider,
      r.weight,
      r.priority,
      STATE_TEXT[r.state] ?? r.state,
      until(r.coolingUntil),
      headroomText(r.headroom),
      r.circuit,
    ]);
    replace(
      area,
      h('p', { class: 'hint' }, 'As of ', until(view.at), ' UTC on this instance.'),
      h('h2', { id: 'providers-heading' }, 'Providers'),
      dataTable('Providers', ['Provider', 'Type', 'Routes'], providers, { numeric: [2] }),
      h('h2', { id: 'routes-heading' }, 'Routes'),
      routes.length === 0
        ? notice('ok', 'No routes yet: a model without routes of its own gets one on its first request.')
        : dataTable('Routes', ['Route', 'Model', 'Provider', 'Weight', 'Priority', 'State', 'Cooling until (UTC)', 'Headroom', 'Breaker'], routes, { numeric: [3, 4] }),
    );
  }
  replace(
    ctx.main,
    h('h1', { tabindex: -1 }, 'Routes'),
    h('button', { type: 'button', class: 'secondary', onclick: () => void refresh() }, 'Refresh'),
    area,
  );
  await refresh();
}
