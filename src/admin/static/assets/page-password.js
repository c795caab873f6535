// @ts-check
// Account > Change password (customer users): the current password, then the new one twice. Other
// browsers signed in as this user are signed out; this one stays signed in.
import { api } from './api.js';
import { field, h, notice, replace } from './dom.js';
import { onSubmit } from './forms.js';

/** @param {import('./app.js').PageContext} ctx */
export async function passwordPage(ctx) {
  const status = h('div', { class: 'form-messages' });
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card', 'aria-labelledby': 'change-password' },
      h('h2', { id: 'change-password' }, ctx.me.email ?? 'Your account'),
      h(
        'div',
        { class: 'grid' },
        field('Current password', { name: 'currentPassword', type: 'password', required: true, autocomplete: 'current-password' }),
        field('New password', { name: 'newPassword', type: 'password', required: true, minlength: 12, autocomplete: 'new-password' }, 'At least 12 characters.'),
        field('Repeat the new password', { name: 'repeatPassword', type: 'password', required: true, minlength: 12, autocomplete: 'new-password' }),
      ),
      h('button', { type: 'submit' }, 'Change password'),
    )
  );
  onSubmit(form, async (v, f) => {
    replace(status);
    if (v.newPassword !== v.repeatPassword) throw new Error('The two new passwords differ.');
    const { otherSessionsEnded } = await api('POST', '/session/password', { currentPassword: v.currentPassword, newPassword: v.newPassword });
    f.reset();
    const others = otherSessionsEnded === 0 ? '' : ` ${otherSessionsEnded} other session${otherSessionsEnded === 1 ? ' was' : 's were'} signed out.`;
    replace(status, notice('ok', `Password changed.${others}`));
  });
  replace(ctx.main, h('div', { class: 'page-head' }, h('h1', { tabindex: -1 }, 'Change password')), status, form);
}
