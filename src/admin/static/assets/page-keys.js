// @ts-check
// Customer > API Keys: the keys table, the create form, the one-time display of a new key, editing (an
// Edit action on each active key), revoking. Operators reach this page for every customer.
import { api, enc } from './api.js';
import { budgetCell, budgetWarning } from './budget.js';
import { h, newId, notice, replace } from './dom.js';
import { confirmDialog, onSubmit, valuesOf } from './forms.js';
import { count, when } from './format.js';
import { changedFields, fillKeyFields, keyBody, keyFields } from './key-fields.js';
import { customerHeader } from './layout.js';
import { dataTable } from './table.js';

/** @param {import('./app.js').PageContext} ctx */
export async function keysPage(ctx) {
  const path = `/customers/${enc(ctx.params.customerId)}`;
  const [{ customer }, { models }] = await Promise.all([api('GET', path), api('GET', '/models')]);
  const revealArea = h('div', { class: 'reveal-area' });
  const editArea = h('div', { class: 'edit-area' });
  const tableArea = h('section', { 'aria-labelledby': 'keys-heading' });
  const messages = h('div', { class: 'form-messages' });

  async function refreshTable() {
    const { keys } = await api('GET', `${path}/keys`);
    const warnings = keys.filter((/** @type {any} */ k) => k.status === 'active').map((/** @type {any} */ k) => budgetWarning(k.budgetStatus, `Key ${k.name ?? k.prefix}`));
    replace(tableArea, h('h2', { id: 'keys-heading', tabindex: -1 }, 'Keys'), messages, ...warnings, keys.length === 0 ? notice('ok', 'No keys yet.') : keysTable(keys, edit, revoke));
  }

  /** Opens the Edit form of a key above the table; saving sends only what was changed. @param {any} key */
  function edit(key) {
    const form = editForm(models, key, async (changes) => {
      await api('PATCH', `${path}/keys/${enc(key.id)}`, changes);
      replace(editArea);
      await refreshTable();
      replace(messages, notice('ok', `Key ${changes.name ?? key.name ?? key.prefix} saved.`));
      tableArea.querySelector('h2')?.focus();
    }, () => replace(editArea));
    replace(editArea, form);
    form.querySelector('h2')?.focus();
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
  replace(ctx.main, customerHeader(ctx, customer, 'keys', 'API Keys'), revealArea, form, editArea, tableArea);
  await refreshTable();
}

/**
 * @param {Array<{ id: string, displayName: string, priced: boolean }>} models
 * @param {(body: Record<string, unknown>) => Promise<void>} create
 */
function createForm(models, create) {
  const form = /** @type {HTMLFormElement} */ (
    h('form', { class: 'card', 'aria-labelledby': 'new-key' }, h('h2', { id: 'new-key' }, 'Create a key'), ...keyFields(models), h('button', { type: 'submit' }, 'Create key'))
  );
  onSubmit(form, async (v, f) => {
    await create(keyBody(v, f));
    f.reset();
  });
  return form;
}

/**
 * The Edit form of one key: its settings filled in; saving sends the fields changed, nothing else.
 * @param {Array<{ id: string, displayName: string, priced: boolean }>} models
 * @param {any} key
 * @param {(changes: Record<string, unknown>) => Promise<void>} save
 * @param {() => void} cancel
 */
function editForm(models, key, save, cancel) {
  const titleId = newId('edit-key');
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card', 'aria-labelledby': titleId },
      h('h2', { id: titleId, tabindex: -1 }, `Edit key ${key.name ?? key.prefix}`),
      h('p', { class: 'hint' }, 'Running gateways apply a change within seconds.'),
      ...keyFields(models),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save changes'), h('button', { type: 'button', class: 'secondary', onclick: cancel }, 'Cancel')),
    )
  );
  fillKeyFields(form, key);
  const before = keyBody(valuesOf(form), form);
  onSubmit(form, async (v, f) => {
    const changes = changedFields(before, keyBody(v, f));
    if (Object.keys(changes).length === 0) throw new Error('Nothing changed.');
    await save(changes);
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
 * @param {(key: any) => void} edit
 * @param {(key: any) => Promise<void>} revoke
 */
function keysTable(keys, edit, revoke) {
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
        ? h(
            'span',
            { class: 'row-actions' },
            h('button', { type: 'button', class: 'secondary small', 'aria-label': `Edit key ${k.name ?? k.prefix}`, onclick: () => edit(k) }, 'Edit'),
            h('button', { type: 'button', class: 'danger small', 'aria-label': `Revoke key ${k.name ?? k.prefix}`, onclick: () => void revoke(k) }, 'Revoke'),
          )
        : '',
    ]),
  );
}
