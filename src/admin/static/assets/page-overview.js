// @ts-check
// Overview (operators): the whole gateway on one page. This calendar month's spend (UTC) over every
// customer, the customers and models that spent most, the budgets of which 80% or more is spent, the last
// hour's requests and errors, and the upstream routes (the Routes page's tables). Refresh reads again.
import { api, enc } from './api.js';
import { budgetCell } from './budget.js';
import { h, notice } from './dom.js';
import { count, when } from './format.js';
import { refreshingPage } from './layout.js';
import { routesTables } from './routes-tables.js';
import { dataTable } from './table.js';

const COST_LABEL = 'Cost (USD)';

/** One figure of the totals strip. @param {string} label @param {string} key @param {string} value */
function figure(label, key, value) {
  return h('div', {}, h('dt', {}, label), h('dd', { 'data-total': key }, value));
}

/** A customer's name linking to its Usage page. @param {string} id @param {string | null} name */
function customerLink(id, name) {
  return h('a', { href: `/dashboard/customers/${enc(id)}/usage` }, name ?? id);
}

/** @param {any} view */
function renderOverview(view) {
  const month = `${view.period.from} to ${view.period.to}`;
  const totals = h(
    'dl',
    { class: 'totals', 'aria-label': 'Totals' },
    figure(`${COST_LABEL} this month`, 'costUsd', view.spend.costUsd),
    figure('Requests this month', 'requests', count(view.spend.requests)),
    figure('Requests last hour', 'lastHourRequests', count(view.lastHour.requests)),
    figure('Errors last hour', 'lastHourErrors', count(view.lastHour.errors)),
  );
  const customers = view.topCustomers.length === 0
    ? notice('ok', `No requests between ${month}.`)
    : dataTable('Top customers', ['Customer', 'Requests', COST_LABEL], view.topCustomers.map((/** @type {any} */ c) => [customerLink(c.customerId, c.customerName), count(c.requests), c.costUsd]), { numeric: [1, 2] });
  const models = view.topModels.length === 0
    ? notice('ok', `No requests between ${month}.`)
    : dataTable('Top models', ['Model', 'Requests', COST_LABEL], view.topModels.map((/** @type {any} */ m) => [m.model, count(m.requests), m.costUsd]), { numeric: [1, 2] });
  const budgets = view.budgetsNearEnd.length === 0
    ? notice('ok', `No budget has ${view.budgetWarningPercent}% or more spent.`)
    : dataTable(
        'Budgets near their end',
        ['Customer', 'Key', 'Spent of budget', 'Resets (UTC)'],
        view.budgetsNearEnd.map((/** @type {any} */ b) => [
          customerLink(b.customerId, b.customerName),
          b.keyId === null ? 'all keys (customer budget)' : h('span', {}, b.keyName ?? '—', ' ', h('code', {}, `${b.keyPrefix}…`)),
          budgetCell(b),
          when(b.resetsAt, 'never'),
        ]),
      );
  return [
    h('p', { class: 'hint' }, `This month: ${month} (UTC). Last hour: since `, when(view.lastHour.since), ' UTC.'),
    totals,
    h('h2', {}, 'Top customers this month'),
    customers,
    h('h2', {}, 'Top models this month'),
    models,
    h('h2', {}, `Budgets ${view.budgetWarningPercent}% or more spent`),
    budgets,
    h('h2', {}, 'Upstream routes'),
    ...routesTables(view.routes, 'h3'),
  ];
}

/** @param {import('./app.js').PageContext} ctx */
export async function overviewPage(ctx) {
  await refreshingPage(ctx, 'Overview', async () => renderOverview(await api('GET', '/overview')));
}
