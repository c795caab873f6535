// @ts-check
// A key's settings as form fields and as the API body, shared by the create form and the Edit form of
// Customer > API Keys, so both ask the same things the same way.
import { budgetFields } from './budget.js';
import { field, h, newId } from './dom.js';
import { unpricedMark } from './unpriced.js';

/**
 * The fields (name, expiry, limits, budget) and the allowed models.
 * @param {Array<{ id: string, displayName: string, priced: boolean }>} models
 */
export function keyFields(models) {
  return [
    h(
      'div',
      { class: 'grid' },
      field('Name', { name: 'name', required: true, maxlength: 200, autocomplete: 'off' }, 'What the key is for, e.g. "CI" or "Alice laptop".'),
      field('Expiry date (UTC, optional)', { name: 'expires', type: 'date' }, 'The key stops working at 00:00 UTC that day.'),
      field('Requests per minute (optional)', { name: 'rpm', type: 'number', min: 1, step: 1, inputmode: 'numeric' }),
      field('Tokens per minute (optional)', { name: 'tpm', type: 'number', min: 1, step: 1, inputmode: 'numeric' }),
      ...budgetFields('budget', 'Spend budget (USD, optional)'),
    ),
    h(
      'fieldset',
      { class: 'models' },
      h('legend', {}, 'Allowed models'),
      h('p', { class: 'hint' }, 'Leave all unticked to allow every model in the catalogue.'),
      models.map((m) => {
        const id = newId('model');
        return h('div', { class: 'check' }, h('input', { type: 'checkbox', id, name: 'model', value: m.id }), h('label', { for: id }, `${m.displayName} `, h('code', {}, m.id), unpricedMark(m)));
      }),
    ),
  ];
}

/**
 * The form's values as the API takes them. Without an amount, only `budgetUsd: null` (no budget: a period
 * or mode would be refused with it).
 * @param {Record<string, string>} v
 * @param {HTMLFormElement} form
 * @returns {Record<string, unknown>}
 */
export function keyBody(v, form) {
  const chosen = [...form.querySelectorAll('input[name=model]:checked')].map((el) => /** @type {HTMLInputElement} */ (el).value);
  const amount = (v.budgetUsd ?? '').trim();
  return {
    name: v.name,
    expiresAt: v.expires ? `${v.expires}T00:00:00Z` : null,
    allowedModels: chosen.length === 0 ? null : chosen,
    rpm: v.rpm ? Number(v.rpm) : null,
    tpm: v.tpm ? Number(v.tpm) : null,
    ...(amount === '' ? { budgetUsd: null } : { budgetUsd: amount, budgetPeriod: v.budgetPeriod, budgetMode: v.budgetMode }),
  };
}

/**
 * Puts a key's settings into the fields.
 * @param {HTMLFormElement} form
 * @param {any} key as the API shows it
 */
export function fillKeyFields(form, key) {
  const set = (/** @type {string} */ name, /** @type {string} */ value) => {
    const el = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (form.querySelector(`[name=${name}]`));
    if (el !== null) el.value = value;
  };
  set('name', key.name ?? '');
  set('expires', key.expiresAt === null ? '' : key.expiresAt.slice(0, 10));
  set('rpm', key.rpm === null ? '' : String(key.rpm));
  set('tpm', key.tpm === null ? '' : String(key.tpm));
  set('budgetUsd', key.budget === null ? '' : key.budget.amountUsd);
  set('budgetPeriod', key.budget === null ? 'month' : key.budget.period);
  set('budgetMode', key.budget === null ? 'hard' : key.budget.mode);
  for (const el of form.querySelectorAll('input[name=model]')) {
    const box = /** @type {HTMLInputElement} */ (el);
    box.checked = key.allowedModels !== null && key.allowedModels.includes(box.value);
  }
}

/**
 * What differs between two bodies: only those fields go in an edit, so a setting changed meanwhile by
 * someone else (another tab, the command line) is kept.
 * @param {Record<string, unknown>} before
 * @param {Record<string, unknown>} after
 */
export function changedFields(before, after) {
  /** @type {Record<string, unknown>} */
  const changed = {};
  for (const [name, value] of Object.entries(after)) if (JSON.stringify(value) !== JSON.stringify(before[name])) changed[name] = value;
  return changed;
}
