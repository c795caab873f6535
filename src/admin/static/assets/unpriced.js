// @ts-check
// A model without a price is counted at $0 (docs/spend.md): wherever the dashboard names one, it says so.
import { h } from './dom.js';

/** The mark beside a model the catalogue has no price for; null for a priced (or unknown) model. @param {{ priced: boolean } | undefined} model */
export function unpricedMark(model) {
  return model !== undefined && model.priced === false ? h('span', { class: 'unpriced', title: 'This model has no price: its requests are counted at $0.' }, ' no price: counted at $0') : null;
}
