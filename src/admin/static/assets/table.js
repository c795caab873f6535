// @ts-check
// Data tables: a caption for screen readers, header cells with scope, a scroll wrapper on narrow screens.
import { h } from './dom.js';

/**
 * @param {string} caption
 * @param {string[]} headers
 * @param {Array<Array<Node | string | number | null>>} rows
 * @param {{ numeric?: number[], foot?: Array<Node | string | number | null> }} [opts] numeric: column indexes aligned right
 */
export function dataTable(caption, headers, rows, opts = {}) {
  const numeric = new Set(opts.numeric ?? []);
  /** @param {number} i */
  const cls = (i) => (numeric.has(i) ? 'num' : false);
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, headers.map((text, i) => h('th', { scope: 'col', class: cls(i) }, text)))),
      h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((c, i) => h('td', { class: cls(i), 'data-label': headers[i] }, c))))),
      opts.foot ? h('tfoot', {}, h('tr', {}, opts.foot.map((c, i) => h(i === 0 ? 'th' : 'td', { class: cls(i), scope: i === 0 ? 'row' : false, 'data-label': i === 0 ? false : headers[i] }, c)))) : null,
    ),
  );
}
