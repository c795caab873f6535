// @ts-check
// A model without a price is counted at $0 (docs/spend.md): wherever the dashboard names one, it says so.
import { h } from './dom.js';

/**
 * The mark beside a model the catalogue has no price of its own for; null for a priced (or unknown) model.
 * @param {{ priced: boolean, pricedByDefault?: boolean } | undefined} model
 */
export function unpricedMark(model) {
  if (model === undefined) return null;
  if (model.priced === false) {
    return h('span', { class: 'unpriced', title: 'This model has no price: its requests are counted at $0, and keys with a hard budget cannot use it.' }, ' no price: counted at $0, refused under a hard budget');
  }
  if (model.pricedByDefault === true) return h('span', { class: 'unpriced', title: "This model has no price of its own: it is charged at the operator's default price for unpriced models." }, ' default price for unpriced models');
  return null;
}
