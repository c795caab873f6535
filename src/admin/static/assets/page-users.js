// @ts-check
// Customer > Users (operators): who may sign in to this customer's pages; add and remove them.
import { api, enc } from './api.js';
import { field, h, notice, replace } from './dom.js';
import { confirmDialog, onSubmit } from './forms.js';
import { when } from './format.js';
import { customerHeader } from './layout.js';
import { dataTable } from './table.js';

/** @param {import('./app.js').PageContext} ctx */
export async function usersPage(ctx) {
  const path = `/customers/${enc(ctx.params.customerId)}`;
  const { customer } = await api('GET', path);
  const listArea = h('section', { 'aria-labelledby': 'users-heading' });
  const messages = h('div', { class: 'form-messages' });

  async function refresh() {
    const { users } = await api('GET', `${path}/users`);
    const rows = users.map((/** @type {any} */ u) => [
      u.email,
      when(u.createdAt),
      when(u.lastSignInAt, 'never'),
      h('button', { type: 'button', class: 'danger small', 'aria-label': `Remove user ${u.email}`, onclick: () => void remove(u) }, 'Remove'),
    ]);
    replace(listArea, h('h2', { id: 'users-heading' }, 'Users'), messages, users.length === 0 ? notice('ok', 'No users yet.') : dataTable('Users', ['Email', 'Created (UTC)', 'Last sign-in (UTC)', 'Actions'], rows));
  }

  /** @param {any} user */
  async function remove(user) {
    const yes = await confirmDialog({ title: `Remove ${user.email}?`, text: 'Their sessions end at once and they can no longer sign in.', confirm: 'Remove user' });
    if (!yes) return;
    try {
      await api('DELETE', `${path}/users/${enc(user.id)}`);
      await refresh();
    } catch (err) {
      replace(messages, notice('error', err instanceof Error ? err.message : String(err)));
    }
  }

  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card', 'aria-labelledby': 'new-user' },
      h('h2', { id: 'new-user' }, 'Add a user'),
      h(
        'div',
        { class: 'grid' },
        field('Email', { name: 'email', type: 'email', required: true, autocomplete: 'off' }),
        field('Initial password', { name: 'password', type: 'password', required: true, minlength: 12, autocomplete: 'new-password' }, 'At least 12 characters. Give it to the user over a safe channel.'),
      ),
      h('button', { type: 'submit' }, 'Add user'),
    )
  );
  onSubmit(form, async (v, f) => {
    await api('POST', `${path}/users`, { email: v.email, password: v.password });
    f.reset();
    await refresh();
  });
  replace(ctx.main, customerHeader(ctx, customer, 'users', 'Users'), form, listArea);
  await refresh();
}
