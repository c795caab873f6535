// @ts-check
// Audit: the admin trail, newest first: when, who, from which address, what, and what changed (the same
// line the CLI prints, sent by the server). Operators see every customer's entries (Audit in the top bar,
// with a customer filter); on a customer's pages, and for its users, only that customer's.
import { api, enc, queryString } from './api.js';
import { field, h, newId, notice, replace } from './dom.js';
import { onSubmit } from './forms.js';
import { when } from './format.js';
import { customerHeader } from './layout.js';
import { dataTable } from './table.js';

/** Entries the page asks for at most (the API's own ceiling). */
const MAX_ROWS = 1000;

/** @param {import('./app.js').PageContext} ctx */
export async function auditPage(ctx) {
  const customerId = ctx.params.customerId ?? null;
  const customer = customerId === null ? null : (await api('GET', `/customers/${enc(customerId)}`)).customer;
  const customers = customerId === null ? (await api('GET', '/customers')).customers : [];
  const results = h('div', { 'aria-live': 'polite' });
  const params = new URLSearchParams(location.search);

  const selectId = newId('audit-customer');
  const chooser =
    customerId === null
      ? h(
          'div',
          { class: 'field' },
          h('label', { for: selectId }, 'Customer'),
          h(
            'select',
            { id: selectId, name: 'customerId' },
            h('option', { value: '' }, 'All customers'),
            customers.map((/** @type {any} */ c) => h('option', { value: c.id, selected: c.id === params.get('customerId') }, c.name)),
          ),
        )
      : null;
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card inline-form', 'aria-label': 'Audit filters' },
      chooser,
      field('Since (UTC)', { name: 'since', type: 'date', value: params.get('since') ?? '' }),
      h('button', { type: 'submit' }, 'Show entries'),
    )
  );
  onSubmit(form, async (v) => {
    const query = queryString({ customerId: v.customerId, since: v.since });
    history.replaceState(null, '', `${location.pathname}${query}`);
    await show(v.customerId ?? '', v.since);
  });

  /** @param {string} chosen @param {string} since */
  async function show(chosen, since) {
    const path = customerId === null ? `/audit${queryString({ customerId: chosen, since, limit: String(MAX_ROWS) })}` : `/customers/${enc(customerId)}/audit${queryString({ since, limit: String(MAX_ROWS) })}`;
    const { entries } = await api('GET', path);
    const headers = ['Time (UTC)', 'Who', 'Address', 'Action', ...(customerId === null ? ['Customer'] : []), 'Target', 'Change'];
    const rows = entries.map((/** @type {any} */ e) => [
      when(e.at),
      e.actor,
      e.address ?? '—',
      h('code', {}, e.action),
      ...(customerId === null ? [e.customerName ?? e.customerId ?? '—'] : []),
      e.targetId ?? '—',
      e.change === '' ? '—' : e.change,
    ]);
    replace(
      results,
      entries.length === 0
        ? notice('ok', 'No audit entries for these filters.')
        : dataTable('Audit entries', headers, rows),
      entries.length === MAX_ROWS ? notice('warn', `Showing the newest ${MAX_ROWS} entries; choose a later date to see less.`) : null,
    );
  }

  const head = customer === null ? h('h1', { tabindex: -1 }, 'Audit') : customerHeader(ctx, customer, 'audit', 'Audit');
  replace(ctx.main, head, form, results);
  await show(params.get('customerId') ?? '', params.get('since') ?? '');
}
