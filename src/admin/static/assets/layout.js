// @ts-check
// The parts around every page: the top bar (who is signed in, sign out), the customer header with its tabs.
import { budgetWarning } from './budget.js';
import { byId, h, replace } from './dom.js';

/**
 * @param {import('./app.js').Me | null} me
 * @param {() => void} onSignOut
 */
export function renderTopbar(me, onSignOut) {
  const bar = byId('topbar');
  bar.hidden = me === null;
  if (me === null) return replace(bar);
  const who = me.role === 'operator' ? 'Operator' : `${me.email} · ${me.customer?.name ?? ''}`;
  replace(
    bar,
    h('a', { class: 'brand', href: '/dashboard' }, h('img', { src: '/dashboard/assets/favicon.svg', alt: '', width: 24, height: 24 }), 'model-gateway'),
    me.role === 'operator' ? h('nav', { 'aria-label': 'Main' }, h('a', { href: '/dashboard/overview' }, 'Overview'), h('a', { href: '/dashboard/customers' }, 'Customers'), h('a', { href: '/dashboard/routes' }, 'Routes'), h('a', { href: '/dashboard/audit' }, 'Audit')) : null,
    h('span', { class: 'who' }, who),
    me.role === 'customer' ? h('nav', { 'aria-label': 'Account' }, h('a', { href: '/dashboard/account/password' }, 'Change password')) : null,
    h('button', { type: 'button', class: 'secondary', onclick: onSignOut }, 'Sign out'),
  );
}

/**
 * The heading of a customer's pages: breadcrumb, name, the tabs the signed-in role may use, and the
 * warning once 80% of the customer's budget is spent.
 * @param {import('./app.js').PageContext} ctx
 * @param {{ id: string, name: string, budgetStatus?: any }} customer
 * @param {'keys' | 'usage' | 'users' | 'audit'} current
 * @param {string} title
 */
export function customerHeader(ctx, customer, current, title) {
  const base = `/dashboard/customers/${encodeURIComponent(customer.id)}`;
  const tabs = /** @type {Array<['keys' | 'usage' | 'users' | 'audit', string]>} */ ([
    ['keys', 'API Keys'],
    ['usage', 'Usage'],
  ]);
  if (ctx.me.role === 'operator') tabs.push(['users', 'Users']);
  tabs.push(['audit', 'Audit']);
  return h(
    'div',
    { class: 'page-head' },
    ctx.me.role === 'operator'
      ? h('nav', { 'aria-label': 'Breadcrumb', class: 'breadcrumb' }, h('a', { href: '/dashboard/customers' }, 'Customers'), h('span', { 'aria-hidden': 'true' }, ' › '), customer.name)
      : null,
    h('h1', { tabindex: -1 }, `${customer.name} › ${title}`),
    h(
      'nav',
      { class: 'tabs', 'aria-label': 'Customer' },
      tabs.map(([key, label]) => h('a', { href: `${base}/${key}`, 'aria-current': key === current ? 'page' : false }, label)),
    ),
    budgetWarning(customer.budgetStatus, `Customer ${customer.name}`),
  );
}

/**
 * A page of one heading, a Refresh button and what `read` makes of a fresh answer, read now and on each
 * click (the operators' Overview and Routes).
 * @param {import('./app.js').PageContext} ctx
 * @param {string} title
 * @param {() => Promise<Array<Node | string>>} read
 */
export async function refreshingPage(ctx, title, read) {
  const area = h('div', { 'aria-live': 'polite' });
  async function refresh() {
    replace(area, ...(await read()));
  }
  replace(ctx.main, h('h1', { tabindex: -1 }, title), h('button', { type: 'button', class: 'secondary', onclick: () => void refresh() }, 'Refresh'), area);
  await refresh();
}
