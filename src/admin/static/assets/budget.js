// @ts-check
// Spend budgets on the pages: the form fields (amount in USD, period, mode), how a budget and what was
// spent of it read, and the warning from 80% spent. Amounts come from the API as exact decimal strings.
import { field, h, newId, notice } from './dom.js';

/** @param {string} label @param {string} name @param {Array<[string, string]>} options */
function select(label, name, options) {
  const id = newId(name);
  return h('div', { class: 'field' }, h('label', { for: id }, label), h('select', { id, name }, options.map(([value, text]) => h('option', { value }, text))));
}

/**
 * The three fields of a budget; `prefix` names them (`${prefix}Usd`, `${prefix}Period`, `${prefix}Mode`).
 * @param {string} prefix
 * @param {string} amountLabel
 */
export function budgetFields(prefix, amountLabel) {
  return [
    field(amountLabel, { name: `${prefix}Usd`, type: 'text', inputmode: 'decimal', pattern: '\\d{1,7}(\\.\\d{1,9})?', autocomplete: 'off' }, 'In USD, e.g. 250 or 12.50. Empty: no budget.'),
    select('Budget period (UTC)', `${prefix}Period`, [['month', 'Per month'], ['day', 'Per day'], ['total', 'In total']]),
    select('When spent', `${prefix}Mode`, [['hard', 'Refuse requests (hard)'], ['soft', 'Allow and flag (soft)']]),
  ];
}

/** The form's budget values as the API takes them (no amount: no budget). @param {Record<string, string>} v @param {string} prefix */
export function budgetBody(v, prefix) {
  const amount = (v[`${prefix}Usd`] ?? '').trim();
  return { [`${prefix}Usd`]: amount === '' ? null : amount, [`${prefix}Period`]: v[`${prefix}Period`], [`${prefix}Mode`]: v[`${prefix}Mode`] };
}

const PERIODS = /** @type {Record<string, string>} */ ({ day: 'day', month: 'month', total: 'total' });

/** "25.00 USD / month (hard)". @param {any} b */
export function budgetText(b) {
  return b === null ? 'none' : `${b.amountUsd} USD / ${PERIODS[b.period] ?? b.period} (${b.mode})`;
}

/** A budget with what was spent of it; marked from 80%. @param {any} status */
export function budgetCell(status) {
  if (status === null || status === undefined) return 'none';
  const percent = Math.floor(status.utilisation * 100);
  return h(
    'span',
    { class: status.warning ? 'budget-warn' : '' },
    `${status.spentUsd} of ${budgetText(status)} · ${percent}%`,
  );
}

/**
 * The warning at 80% of a budget spent, or null.
 * @param {any} status
 * @param {string} whose e.g. 'Customer acme' or 'Key CI'
 */
export function budgetWarning(status, whose) {
  if (status === null || status === undefined || !status.warning) return null;
  const percent = Math.floor(status.utilisation * 100);
  const when = status.resetsAt === null ? 'It does not reset.' : `It resets at ${status.resetsAt.slice(0, 16).replace('T', ' ')} UTC.`;
  const then = status.mode === 'hard' ? 'Requests are refused once it is spent.' : 'Requests past it are allowed and flagged.';
  return notice('warn', `${whose} has spent ${percent}% of its budget (${status.spentUsd} of ${status.amountUsd} USD this ${status.period === 'total' ? 'lifetime' : status.period}). ${then} ${when}`);
}
