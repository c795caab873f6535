// @ts-check
// Calls to /admin/api. State-changing calls carry the session's CSRF token; the session cookie itself is
// HttpOnly and travels on its own.

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {string | null} param
   */
  constructor(status, message, param) {
    super(message);
    this.status = status;
    this.param = param;
  }
}

/** @type {string | null} */
let csrfToken = null;
/** @type {() => void} */
let onSignedOut = () => {};

/** @param {string | null} token */
export function setCsrfToken(token) {
  csrfToken = token;
}

/** Called when a call finds the session gone (expired, signed out elsewhere). @param {() => void} fn */
export function whenSignedOut(fn) {
  onSignedOut = fn;
}

/**
 * @param {'GET' | 'POST' | 'PATCH' | 'DELETE'} method
 * @param {string} path below /admin/api
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(`/admin/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  const data = await res.json().catch(() => null);
  if (res.ok) return data;
  const error = data && typeof data === 'object' && data.error ? data.error : {};
  if (res.status === 401 && path !== '/session') onSignedOut();
  throw new ApiError(res.status, error.message ?? `Request failed (${res.status}).`, error.param ?? null);
}

/** @param {Record<string, string | null | undefined>} params */
export function queryString(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** @param {string} id */
export const enc = (id) => encodeURIComponent(id);
