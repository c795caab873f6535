// @ts-check
// Customers (operators): the list with the rate limits in force and the budgets, a form to add one, a form
// to set a customer's own limits (empty: none of its own; with neither set, the gateway's configured
// default applies) and one to set its spend budget (empty amount: none).
import { api, enc } from './api.js';
import { budgetBody, budgetCell, budgetFields } from './budget.js';
import { field, h, newId, notice, replace } from './dom.js';
import { onSubmit } from './forms.js';
import { count, when } from './format.js';
import { dataTable } from './table.js';

/** @param {number | null} n */
const limitText = (n) => (n === null ? '—' : count(n));

/** The limits in force, marked when they are the configured default rather than the customer's own. @param {any} c */
function limitsCell(c) {
  if (c.limitsInForce === null) return 'none';
  const text = `${limitText(c.limitsInForce.rpm)} / ${limitText(c.limitsInForce.tpm)}`;
  return c.rpm === null && c.tpm === null ? `${text} (default)` : text;
}

/** @param {HTMLInputElement | null} input @param {number | null} n */
function setNumber(input, n) {
  if (input !== null) input.value = n === null ? '' : String(n);
}

/**
 * A setting of one customer: the customer to choose, the fields, a save button. The fields start from the
 * chosen customer's setting (`fill`), so saving changes only what was edited; saving posts `body(values)`
 * to the customer's `path` and shows the list again.
 * @param {import('./app.js').PageContext} ctx
 * @param {any[]} customers
 * @param {{ stem: string, title: string, hint: string, fields: HTMLElement[], button: string, path: string,
 *   fill: (form: HTMLFormElement, customer: any) => void, body: (values: Record<string, string>) => unknown }} spec
 */
function customerSettingForm(ctx, customers, spec) {
  const selectId = newId(`${spec.stem}-customer`);
  const select = /** @type {HTMLSelectElement} */ (
    h('select', { id: selectId, name: 'customerId', required: true }, customers.map((c) => h('option', { value: c.id }, c.name)))
  );
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card inline-form', 'aria-labelledby': `customer-${spec.stem}` },
      h('h2', { id: `customer-${spec.stem}` }, spec.title),
      h('p', { class: 'hint' }, spec.hint),
      h('div', { class: 'field' }, h('label', { for: selectId }, 'Customer'), select),
      ...spec.fields,
      h('button', { type: 'submit' }, spec.button),
    )
  );
  const fill = () => spec.fill(form, customers.find((x) => x.id === select.value) ?? null);
  select.addEventListener('change', fill);
  fill();
  onSubmit(form, async (v) => {
    await api('POST', `/customers/${enc(v.customerId)}/${spec.path}`, spec.body(v));
    ctx.go('/dashboard/customers');
  });
  return form;
}

/** @param {import('./app.js').PageContext} ctx @param {any[]} customers */
function limitsForm(ctx, customers) {
  return customerSettingForm(ctx, customers, {
    stem: 'limits',
    title: 'Customer rate limits',
    hint: 'For all the customer\u2019s keys together. Leave a field empty for no limit of its own; with both empty, the configured default applies. Running gateways apply a change within seconds.',
    fields: [
      field('Requests per minute', { name: 'rpm', type: 'number', min: 1, step: 1, inputmode: 'numeric' }),
      field('Tokens per minute', { name: 'tpm', type: 'number', min: 1, step: 1, inputmode: 'numeric' }),
    ],
    button: 'Save limits',
    path: 'limits',
    fill: (form, c) => {
      setNumber(form.querySelector('input[name=rpm]'), c ? c.rpm : null);
      setNumber(form.querySelector('input[name=tpm]'), c ? c.tpm : null);
    },
    body: (v) => ({ rpm: v.rpm ? Number(v.rpm) : null, tpm: v.tpm ? Number(v.tpm) : null }),
  });
}

/** @param {import('./app.js').PageContext} ctx @param {any[]} customers */
function budgetForm(ctx, customers) {
  return customerSettingForm(ctx, customers, {
    stem: 'budget',
    title: 'Customer spend budget',
    hint: 'For all the customer\u2019s keys together, at the models\u2019 prices. Hard: requests that would pass it are refused (429); soft: they are allowed and flagged. Running gateways apply a change within seconds.',
    fields: budgetFields('amount', 'Budget (USD)'),
    button: 'Save budget',
    path: 'budget',
    fill: (form, c) => {
      const b = c?.budget ?? null;
      const set = (/** @type {string} */ name, /** @type {string} */ value) => {
        const el = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (form.querySelector(`[name=${name}]`));
        if (el !== null) el.value = value;
      };
      set('amountUsd', b === null ? '' : b.amountUsd);
      set('amountPeriod', b === null ? 'month' : b.period);
      set('amountMode', b === null ? 'hard' : b.mode);
    },
    body: (v) => budgetBody(v, 'amount'),
  });
}

/** @param {import('./app.js').PageContext} ctx */
export async function customersPage(ctx) {
  const { customers } = await api('GET', '/customers');
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card inline-form', 'aria-labelledby': 'new-customer' },
      h('h2', { id: 'new-customer' }, 'New customer'),
      field('Customer name', { name: 'name', required: true, maxlength: 200, autocomplete: 'off' }),
      h('button', { type: 'submit' }, 'Create customer'),
    )
  );
  onSubmit(form, async (v) => {
    const { customer } = await api('POST', '/customers', { name: v.name });
    ctx.go(`/dashboard/customers/${enc(customer.id)}/keys`);
  });

  const table =
    customers.length === 0
      ? notice('ok', 'No customers yet.')
      : dataTable(
          'Customers',
          ['Name', 'ID', 'Created (UTC)', 'Active keys', 'Limits (rpm / tpm)', 'Budget (spent this period)'],
          customers.map((/** @type {any} */ c) => [
            h('a', { href: `/dashboard/customers/${enc(c.id)}/keys` }, c.name),
            h('code', {}, c.id),
            when(c.createdAt),
            count(c.activeKeys),
            limitsCell(c),
            budgetCell(c.budgetStatus),
          ]),
        );
  replace(ctx.main, h('h1', { tabindex: -1 }, 'Customers'), form, table, customers.length === 0 ? null : limitsForm(ctx, customers), customers.length === 0 ? null : budgetForm(ctx, customers));
}
