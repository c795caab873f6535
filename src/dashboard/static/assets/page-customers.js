// @ts-check
// Customers (operators): the list with the rate limits in force, a form to add one, and a form to set a
// customer's own limits (empty: none of its own; with neither set, the gateway's configured default applies).
import { api, enc } from './api.js';
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

/** @param {import('./app.js').PageContext} ctx @param {any[]} customers */
function limitsForm(ctx, customers) {
  const selectId = newId('limits-customer');
  const select = /** @type {HTMLSelectElement} */ (
    h('select', { id: selectId, name: 'customerId', required: true }, customers.map((c) => h('option', { value: c.id }, c.name)))
  );
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card inline-form', 'aria-labelledby': 'customer-limits' },
      h('h2', { id: 'customer-limits' }, 'Customer rate limits'),
      h('p', { class: 'hint' }, 'For all the customer\u2019s keys together. Leave a field empty for no limit of its own; with both empty, the configured default applies. Running gateways apply a change within seconds.'),
      h('div', { class: 'field' }, h('label', { for: selectId }, 'Customer'), select),
      field('Requests per minute', { name: 'rpm', type: 'number', min: 1, step: 1, inputmode: 'numeric' }),
      field('Tokens per minute', { name: 'tpm', type: 'number', min: 1, step: 1, inputmode: 'numeric' }),
      h('button', { type: 'submit' }, 'Save limits'),
    )
  );
  // The fields start from the chosen customer's own limits, so saving changes only what was edited.
  const fill = () => {
    const c = customers.find((x) => x.id === select.value);
    setNumber(form.querySelector('input[name=rpm]'), c ? c.rpm : null);
    setNumber(form.querySelector('input[name=tpm]'), c ? c.tpm : null);
  };
  select.addEventListener('change', fill);
  fill();
  onSubmit(form, async (v) => {
    await api('POST', `/customers/${enc(v.customerId)}/limits`, { rpm: v.rpm ? Number(v.rpm) : null, tpm: v.tpm ? Number(v.tpm) : null });
    ctx.go('/dashboard/customers');
  });
  return form;
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
          ['Name', 'ID', 'Created (UTC)', 'Active keys', 'Limits (rpm / tpm)'],
          customers.map((/** @type {any} */ c) => [
            h('a', { href: `/dashboard/customers/${enc(c.id)}/keys` }, c.name),
            h('code', {}, c.id),
            when(c.createdAt),
            count(c.activeKeys),
            limitsCell(c),
          ]),
        );
  replace(ctx.main, h('h1', { tabindex: -1 }, 'Customers'), form, table, customers.length === 0 ? null : limitsForm(ctx, customers));
}
