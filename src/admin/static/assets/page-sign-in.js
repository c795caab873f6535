// @ts-check
// Sign in: customer users with email and password, operators with the admin token.
import { api } from './api.js';
import { field, h, replace } from './dom.js';
import { onSubmit } from './forms.js';

/** @param {{ main: HTMLElement, onSignedIn: () => Promise<void> }} ctx */
export async function signInPage({ main, onSignedIn }) {
  const userForm = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card', 'aria-labelledby': 'sign-in-user' },
      h('h2', { id: 'sign-in-user' }, 'Customer sign-in'),
      field('Email', { name: 'email', type: 'email', autocomplete: 'username', required: true }),
      field('Password', { name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
      h('button', { type: 'submit' }, 'Sign in'),
    )
  );
  onSubmit(userForm, async (v) => {
    await api('POST', '/session', { email: v.email, password: v.password });
    await onSignedIn();
  });

  const operatorForm = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card', 'aria-labelledby': 'sign-in-operator' },
      h('h2', { id: 'sign-in-operator' }, 'Operator sign-in'),
      field('Admin token', { name: 'token', type: 'password', autocomplete: 'off', required: true }, 'GATEWAY_ADMIN_TOKEN, or the admin-token file in the data folder.'),
      h('button', { type: 'submit' }, 'Sign in as operator'),
    )
  );
  onSubmit(operatorForm, async (v) => {
    await api('POST', '/session', { token: v.token });
    await onSignedIn();
  });

  replace(main, h('h1', { tabindex: -1 }, 'Sign in to model-gateway'), h('div', { class: 'sign-in' }, userForm, operatorForm));
}
