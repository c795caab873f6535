// @ts-check
// Customer > Usage: requests, tokens and cost per day, per model and per key for a date range: totals, a
// chart (by cost or by tokens), tables.
import { api, enc, queryString } from './api.js';
import { field, h, notice, replace } from './dom.js';
import { onSubmit } from './forms.js';
import { count, daysAgo } from './format.js';
import { customerHeader } from './layout.js';
import { PALETTE, stackedBarChart } from './chart.js';
import { dataTable } from './table.js';
import { unpricedMark } from './unpriced.js';

/** The numbers a usage row carries, in table order. */
const COLUMNS = /** @type {const} */ ([
  ['requests', 'Requests'],
  ['inputTokens', 'Input tokens'],
  ['outputTokens', 'Output tokens'],
  ['cacheReadTokens', 'Cache read tokens'],
  ['cacheWriteTokens', 'Cache write tokens'],
]);

const COST_LABEL = 'Cost (USD)';

/** What the chart can show: the cost, one of the columns, or all tokens together. */
const METRICS = /** @type {Array<[string, string, (r: any) => number]>} */ ([
  // The chart draws bars: a double is exact enough for a bar's height (the tables show the exact decimals).
  ['cost', COST_LABEL, (r) => Number(r.costUsd)],
  ['tokens', 'All tokens', (r) => r.inputTokens + r.outputTokens + r.cacheReadTokens + r.cacheWriteTokens],
  ...COLUMNS.map(([key, label]) => /** @type {[string, string, (r: any) => number]} */ ([key, label, (r) => r[key]])),
]);

/** @param {import('./app.js').PageContext} ctx */
export async function usagePage(ctx) {
  const path = `/customers/${enc(ctx.params.customerId)}`;
  const [{ customer }, { models }] = await Promise.all([api('GET', path), api('GET', '/models')]);
  /** @type {Map<string, any>} */
  const catalogue = new Map(models.map((/** @type {any} */ m) => [m.id, m]));
  const results = h('div', { class: 'usage-results', 'aria-live': 'polite' });
  const params = new URLSearchParams(location.search);
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card inline-form', 'aria-label': 'Date range' },
      field('From', { name: 'from', type: 'date', required: true, value: params.get('from') ?? daysAgo(29) }),
      field('To', { name: 'to', type: 'date', required: true, value: params.get('to') ?? daysAgo(0) }),
      h('button', { type: 'submit' }, 'Show usage'),
    )
  );
  onSubmit(form, async (v) => {
    history.replaceState(null, '', `${location.pathname}${queryString({ from: v.from, to: v.to })}`);
    await show(v.from, v.to);
  });

  /** @param {string} from @param {string} to */
  async function show(from, to) {
    const usage = await api('GET', `${path}/usage${queryString({ from, to })}`);
    replace(results, ...renderUsage(usage, catalogue));
  }

  replace(ctx.main, customerHeader(ctx, customer, 'usage', 'Usage'), form, results);
  await show(String(new FormData(form).get('from')), String(new FormData(form).get('to')));
}

/** @param {any} usage @param {Map<string, any>} catalogue */
function renderUsage(usage, catalogue) {
  const totals = h(
    'dl',
    { class: 'totals', 'aria-label': `Totals ${usage.from} to ${usage.to}` },
    COLUMNS.map(([key, label]) => h('div', {}, h('dt', {}, label), h('dd', { 'data-total': key }, count(usage.totals[key])))),
    h('div', {}, h('dt', {}, COST_LABEL), h('dd', { 'data-total': 'costUsd' }, usage.totals.costUsd)),
  );
  if (usage.totals.requests === 0) return [totals, notice('ok', `No requests between ${usage.from} and ${usage.to}.`)];
  const chartArea = h('figure', { class: 'card chart-card' });
  const models = usage.byModel.map((/** @type {any} */ m) => m.model);
  const select = /** @type {HTMLSelectElement} */ (
    h('select', { id: 'usage-metric', onchange: () => drawChart() }, METRICS.map(([key, label]) => h('option', { value: key }, label)))
  );
  function drawChart() {
    const [, label, pick] = METRICS.find(([key]) => key === select.value) ?? METRICS[0];
    const days = usage.byDay.map((/** @type {any} */ d) => d.day);
    const series = models.map((/** @type {string} */ model) => ({
      name: model,
      values: days.map((/** @type {string} */ day) => {
        const row = usage.rows.find((/** @type {any} */ r) => r.day === day && r.model === model);
        return row ? pick(row) : 0;
      }),
    }));
    replace(
      chartArea,
      h('div', { class: 'chart-controls' }, h('label', { for: 'usage-metric' }, 'Chart shows'), select),
      // Dollars may be fractions of a cent: the axis steps down to a millionth of a dollar.
      stackedBarChart({ title: `${label} per day and model, ${usage.from} to ${usage.to}`, days, series, minStep: select.value === 'cost' ? 1e-6 : 1 }),
      h('figcaption', { class: 'legend' }, models.map((/** @type {string} */ m, /** @type {number} */ i) =>
        h('span', {}, h('i', { class: `swatch swatch-${i % PALETTE.length}`, 'aria-hidden': 'true' }), m))),
    );
  }
  drawChart();
  // The counts, then the cost: an exact decimal string from the API, shown as it came.
  const numeric = [...COLUMNS.map((_, i) => i + 1), COLUMNS.length + 1];
  const headings = [...COLUMNS.map(([, l]) => l), COST_LABEL];
  /** @param {any} r */
  const cells = (r) => [...COLUMNS.map(([k]) => count(r[k])), r.costUsd];
  const byModel = dataTable('Usage per model', ['Model', ...headings], usage.byModel.map((/** @type {any} */ m) => [h('span', {}, m.model, unpricedMark(catalogue.get(m.model))), ...cells(m)]), {
    numeric,
    foot: ['Total', ...cells(usage.totals)],
  });
  const byDay = dataTable('Usage per day and model', ['Day', 'Model', ...headings], usage.rows.map((/** @type {any} */ r) => [r.day, r.model, ...cells(r)]), {
    numeric: numeric.map((i) => i + 1),
  });
  const byKey = (usage.byKey ?? []).length === 0
    ? notice('ok', 'No key had requests in this range.')
    : dataTable('Usage per key', ['Key', ...headings], usage.byKey.map((/** @type {any} */ k) => [h('span', {}, k.name ?? '—', ' ', h('code', {}, `${k.prefix}…`)), ...cells(k)]), { numeric });
  return [totals, chartArea, h('h2', {}, 'Per model'), byModel, h('h2', {}, 'Per key'), byKey, h('h2', {}, 'Per day and model'), byDay];
}
