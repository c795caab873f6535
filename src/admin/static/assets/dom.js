// @ts-check
// Building DOM nodes from data without ever parsing data as HTML: text goes in as text nodes.

/**
 * h('button', { type: 'button', onclick: fn, class: 'x' }, 'text', child)
 * Attributes named on* become event listeners; false/null/undefined attributes are left out.
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | number | null | undefined | false | Array<Node | string | null | undefined | false>)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (name === 'value' && 'value' in el) /** @type {HTMLInputElement} */ (el).value = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} parent
 * @param {Array<unknown>} children
 */
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : String(child));
  }
}

/** @param {string} id */
export function byId(id) {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`#${id} missing`);
  return el;
}

/**
 * Replaces the contents of `el`.
 * @param {Element} el
 * @param {...(Node | string | null | undefined | false)} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

let uid = 0;
/** A unique id for label/input pairs. @param {string} stem */
export function newId(stem) {
  uid += 1;
  return `${stem}-${uid}`;
}

/**
 * A labelled form field: <div class=field><label for=…>…</label><input id=…>[hint]</div>.
 * @param {string} label
 * @param {Record<string, unknown>} inputAttrs
 * @param {string} [hint]
 */
export function field(label, inputAttrs, hint) {
  const id = newId(String(inputAttrs.name ?? 'field'));
  const hintId = hint ? `${id}-hint` : undefined;
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, 'aria-describedby': hintId, ...inputAttrs }),
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
  );
}

/**
 * A message area that screen readers announce.
 * @param {'error' | 'ok' | 'warn'} kind
 * @param {string} text
 */
export function notice(kind, text) {
  return h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}
