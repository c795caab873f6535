// @ts-check
// Form plumbing shared by the pages: collect values, disable while sending, show the server's message.
import { ApiError } from './api.js';
import { h, notice, replace } from './dom.js';

/**
 * Wires a form: on submit, runs `send(values)`; errors appear in the form's message area and move focus to
 * the field the server named, if any.
 * @param {HTMLFormElement} form
 * @param {(values: Record<string, string>, form: HTMLFormElement) => Promise<void>} send
 */
export function onSubmit(form, send) {
  const messages = h('div', { class: 'form-messages' });
  form.append(messages);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });

  /** Every failure of `send` ends in the message area, so the promise never rejects. */
  async function submit() {
    const button = form.querySelector('button[type=submit]');
    button?.setAttribute('disabled', '');
    replace(messages);
    try {
      await send(valuesOf(form), form);
    } catch (err) {
      replace(messages, notice('error', err instanceof Error ? err.message : String(err)));
      const named = err instanceof ApiError && err.param ? form.querySelector(`[name="${CSS.escape(err.param)}"]`) : null;
      if (named instanceof HTMLElement) named.focus();
    } finally {
      button?.removeAttribute('disabled');
    }
  }
}

/** The form's text values by name. @param {HTMLFormElement} form @returns {Record<string, string>} */
export function valuesOf(form) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value;
  return values;
}

/**
 * Asks before something that cannot be undone, in a modal <dialog> (Escape or Cancel says no).
 * @param {{ title: string, text: string, confirm: string }} opts
 * @returns {Promise<boolean>}
 */
export function confirmDialog({ title, text, confirm }) {
  return new Promise((resolve) => {
    const titleId = `dlg-${Date.now()}`;
    const dialog = /** @type {HTMLDialogElement} */ (
      h(
        'dialog',
        { 'aria-labelledby': titleId, class: 'confirm' },
        h('form', { method: 'dialog' }, h('h2', { id: titleId }, title), h('p', {}, text), h('div', { class: 'actions' },
          h('button', { value: 'cancel', class: 'secondary', autofocus: true }, 'Cancel'),
          h('button', { value: 'confirm', class: 'danger' }, confirm),
        )),
      )
    );
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'confirm');
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
