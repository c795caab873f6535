// @ts-check
// The dashboard's entry: learn who is signed in, then route /dashboard/... paths to pages (history API).
import { api, ApiError, setCsrfToken, whenSignedOut } from './api.js';
import { byId, notice, replace } from './dom.js';
import { renderTopbar } from './layout.js';
import { auditPage } from './page-audit.js';
import { customersPage } from './page-customers.js';
import { keysPage } from './page-keys.js';
import { overviewPage } from './page-overview.js';
import { passwordPage } from './page-password.js';
import { routesPage } from './page-routes.js';
import { signInPage } from './page-sign-in.js';
import { usagePage } from './page-usage.js';
import { usersPage } from './page-users.js';

/**
 * @typedef {{ role: 'operator' | 'customer', email: string | null, customer: { id: string, name: string } | null, csrfToken: string | null }} Me
 * @typedef {{ me: Me, main: HTMLElement, params: Record<string, string>, go: (path: string) => void, refreshMe: () => Promise<void> }} PageContext
 */

const BASE = '/dashboard';

/** @type {Array<[RegExp, string[], (ctx: PageContext) => Promise<void>]>} */
const PAGES = [
  [/^\/overview$/, [], overviewPage],
  [/^\/customers$/, [], customersPage],
  [/^\/customers\/([^/]+)\/keys$/, ['customerId'], keysPage],
  [/^\/customers\/([^/]+)\/usage$/, ['customerId'], usagePage],
  [/^\/customers\/([^/]+)\/users$/, ['customerId'], usersPage],
  [/^\/customers\/([^/]+)\/audit$/, ['customerId'], auditPage],
  [/^\/audit$/, [], auditPage],
  [/^\/routes$/, [], routesPage],
  [/^\/account\/password$/, [], passwordPage],
];

/** @type {Me | null} */
let me = null;

async function loadMe() {
  try {
    me = await api('GET', '/session');
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    me = null;
  }
  setCsrfToken(me?.csrfToken ?? null);
}

/** Where a signed-in person starts. @param {Me} who */
function home(who) {
  return who.role === 'operator' || who.customer === null ? `${BASE}/customers` : `${BASE}/customers/${encodeURIComponent(who.customer.id)}/keys`;
}

/** @param {string} path */
function go(path) {
  if (location.pathname !== path) history.pushState(null, '', path);
  void render();
}

async function render() {
  const main = byId('main');
  const path = location.pathname.replace(/\/+$/, '') || BASE;
  const sub = path.startsWith(BASE) ? path.slice(BASE.length) : '';
  renderTopbar(me, () => void signOut());
  if (me === null) {
    if (sub !== '/sign-in') history.replaceState(null, '', `${BASE}/sign-in`);
    return showPage(main, () => signInPage({ main, onSignedIn: afterSignIn }));
  }
  const match = PAGES.map(([re, names, page]) => ({ m: re.exec(sub), names, page })).find((p) => p.m !== null);
  if (match === undefined || match.m === null) {
    history.replaceState(null, '', home(me));
    return render();
  }
  /** @type {Record<string, string>} */
  const params = {};
  match.names.forEach((name, i) => (params[name] = decodeURIComponent(/** @type {RegExpExecArray} */ (match.m)[i + 1])));
  const who = me;
  return showPage(main, () => match.page({ me: who, main, params, go, refreshMe: loadMe }));
}

/** Runs a page; a failure shows as a message instead of a blank page. @param {HTMLElement} main @param {() => Promise<void>} run */
async function showPage(main, run) {
  try {
    await run();
  } catch (err) {
    replace(main, notice('error', err instanceof Error ? err.message : String(err)));
  }
  main.querySelector('h1')?.focus();
}

async function afterSignIn() {
  await loadMe();
  go(me === null ? `${BASE}/sign-in` : home(me));
}

async function signOut() {
  try {
    await api('DELETE', '/session');
  } finally {
    me = null;
    setCsrfToken(null);
    go(`${BASE}/sign-in`);
  }
}

// Internal links are plain <a href="/dashboard/..."> elements; follow them without a page load.
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('a[href^="/dashboard"]') : null;
  if (target === null || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  go(/** @type {HTMLAnchorElement} */ (target).pathname);
});
window.addEventListener('popstate', () => void render());
whenSignedOut(() => {
  me = null;
  go(`${BASE}/sign-in`);
});

loadMe().then(render, (err) => replace(byId('main'), notice('error', `The dashboard could not start: ${err.message}`)));
