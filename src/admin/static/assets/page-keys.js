// @ts-check
// Customer > API Keys: the keys table, the create form, the one-time display of a new key, revoking.
import { api, enc } from './api.js';
import { budgetBody, budgetCell, budgetFields, budgetWarning } from './budget.js';
import { field, h, newId, notice, replace } from './dom.js';
import { confirmDialog, onSubmit } from './forms.js';
import { count, when } from './format.js';
import { customerHeader } from './layout.js';
import { dataTable } from './table.js';
import { unpricedMark } from './unpriced.js';

/** @param {import('./app.js').PageContext} ctx */
export async function keysPage(ctx) {
  const path = `/customers/${enc(ctx.params.customerId)}`;
  const [{ customer }, { models }] = await Promise.all([api('GET', path), api('GET', '/models')]);
  const revealArea = h('div', { class: 'reveal-area' });
  const tableArea = h('section', { 'aria-labelledby': 'keys-heading' });
  const messages = h('div', { class: 'form-messages' });

  async function refreshTable() {
    const { keys } = await api('GET', `${path}/keys`);
    const warnings = keys.filter((/** @type {any} */ k) => k.status === 'active').map((/** @type {any} */ k) => budgetWarning(k.budgetStatus, `Key ${k.name ?? k.prefix}`));
    replace(tableArea, h('h2', { id: 'keys-heading', tabindex: -1 }, 'Keys'), messages, ...warnings, keys.length === 0 ? notice('ok', 'No keys yet.') : keysTable(keys, revoke));
  }

  /** @param {any} key */
  async function revoke(key) {
    const yes = await confirmDialog({
      title: `Revoke key ${key.name ?? key.prefix}?`,
      text: `Every request with ${key.prefix}… will be refused within seconds. This cannot be undone.`,
      confirm: 'Revoke key',
    });
    if (!yes) return;
    try {
      await api('DELETE', `${path}/keys/${enc(key.id)}`);
      // The table first: when the notice is announced, the row already says revoked.
      await refreshTable();
      replace(messages, notice('ok', `Key ${key.name ?? key.prefix} revoked.`));
    } catch (err) {
      replace(messages, notice('error', err instanceof Error ? err.message : String(err)));
    }
    tableArea.querySelector('h2')?.focus();
  }

  const form = createForm(models, async (body) => {
    const created = await api('POST', `${path}/keys`, body);
    showNewKey(revealArea, created.secret, created.key);
    await refreshTable();
  });
  replace(ctx.main, customerHeader(ctx, customer, 'keys', 'API Keys'), revealArea, form, tableArea);
  await refreshTable();
}

/**
 * @param {Array<{ id: string, displayName: string, priced: boolean }>} models
 * @param {(body: Record<string, unknown>) => Promise<void>} create
 */
function createForm(models, create) {
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card', 'aria-labelledby': 'new-key' },
      h('h2', { id: 'new-key' }, 'Create a key'),
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
      h('button', { type: 'submit' }, 'Create key'),
    )
  );
  onSubmit(form, async (v, f) => {
    const chosen = [...f.querySelectorAll('input[name=model]:checked')].map((el) => /** @type {HTMLInputElement} */ (el).value);
    await create({
      name: v.name,
      expiresAt: v.expires ? `${v.expires}T00:00:00Z` : null,
      allowedModels: chosen.length === 0 ? null : chosen,
      rpm: v.rpm ? Number(v.rpm) : null,
      tpm: v.tpm ? Number(v.tpm) : null,
      ...budgetBody(v, 'budget'),
    });
    f.reset();
  });
  return form;
}

/**
 * The full key, once: it lives only in this panel until "Done" or leaving the page.
 * @param {HTMLElement} area
 * @param {string} secret
 * @param {any} key
 */
function showNewKey(area, secret, key) {
  const inputId = newId('new-key-value');
  const status = h('span', { class: 'copy-status', role: 'status' });
  const input = /** @type {HTMLInputElement} */ (h('input', { id: inputId, class: 'secret', readonly: true, value: secret, spellcheck: 'false', autocomplete: 'off' }));
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      status.textContent = 'Copied.';
    } catch {
      input.select();
      status.textContent = 'Select the key and copy it (Ctrl+C).';
    }
  };
  const panel = h(
    'section',
    { class: 'card reveal', 'aria-labelledby': `${inputId}-title` },
    h('h2', { id: `${inputId}-title`, tabindex: -1 }, `New key "${key.name ?? key.prefix}"`),
    h('p', { class: 'warning' }, h('strong', {}, 'Copy this key now. '), 'It will not be shown again: the gateway keeps only a hash of it.'),
    h('label', { for: inputId }, 'Your new API key'),
    h('div', { class: 'copy-row' }, input, h('button', { type: 'button', onclick: copy }, 'Copy')),
    status,
    h('button', { type: 'button', class: 'secondary', onclick: () => replace(area) }, 'Done, I have stored it'),
  );
  replace(area, panel);
  panel.querySelector('h2')?.focus();
}

/**
 * @param {any[]} keys
 * @param {(key: any) => Promise<void>} revoke
 */
function keysTable(keys, revoke) {
  return dataTable(
    'API keys',
    ['Name', 'Prefix', 'Created (UTC)', 'Last used (UTC)', 'Expiry (UTC)', 'Allowed models', 'Limits (rpm / tpm)', 'Budget (spent this period)', 'Status', 'Actions'],
    keys.map((k) => [
      k.name ?? '—',
      h('code', {}, `${k.prefix}…`),
      when(k.createdAt),
      when(k.lastUsedAt, 'never'),
      when(k.expiresAt, 'none'),
      k.allowedModels === null ? 'all' : h('ul', { class: 'plain' }, k.allowedModels.map((/** @type {string} */ m) => h('li', {}, m))),
      `${k.rpm === null ? '—' : count(k.rpm)} / ${k.tpm === null ? '—' : count(k.tpm)}`,
      budgetCell(k.budgetStatus),
      h('span', { class: `status ${k.status}` }, k.status),
      k.status === 'active'
        ? h('button', { type: 'button', class: 'danger small', 'aria-label': `Revoke key ${k.name ?? k.prefix}`, onclick: () => void revoke(k) }, 'Revoke')
        : '',
    ]),
  );
}
