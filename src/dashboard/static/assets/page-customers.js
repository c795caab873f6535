// @ts-check
// Customers (operators): the list, and a form to add one.
import { api, enc } from './api.js';
import { field, h, notice, replace } from './dom.js';
import { onSubmit } from './forms.js';
import { count, when } from './format.js';
import { dataTable } from './table.js';

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
          ['Name', 'ID', 'Created (UTC)', 'Active keys'],
          customers.map((/** @type {any} */ c) => [
            h('a', { href: `/dashboard/customers/${enc(c.id)}/keys` }, c.name),
            h('code', {}, c.id),
            when(c.createdAt),
            count(c.activeKeys),
          ]),
        );
  replace(ctx.main, h('h1', { tabindex: -1 }, 'Customers'), form, table);
}
