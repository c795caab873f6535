// A test gateway with the dashboard mounted, and an admin API client that keeps its session like a browser.
import { buildDashboard } from '../../../src/apps/serve/build-admin.js';
import type { DashboardDeps } from '../../../src/admin/routes.js';
import { startHarness } from '../../helpers/harness.js';
import type { Harness, HarnessOptions } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import type { RawResponse } from '../../helpers/http.js';

export { ADMIN_TOKEN } from '../../helpers/harness.js';

/** Cheap enough that tests creating users and signing in stay fast; production uses OWASP's cost. */
export const TEST_PASSWORD_COST = Object.freeze({ N: 1024, r: 8, p: 1 });

export function startDashboardHarness(
  extra: Pick<DashboardDeps, 'sessionTimes' | 'throttle' | 'passwordCost'> = {},
  opts: Omit<HarnessOptions, 'extraRoutes'> = {},
): Promise<Harness> {
  return startHarness({
    ...opts,
    extraRoutes: (built) =>
      buildDashboard(built.runtime, {
        stores: built.stores,
        adminToken: built.adminToken,
        passwordCost: TEST_PASSWORD_COST,
        ...extra,
      }),
  });
}

/** What a same-origin page's fetch sends beside its cookie. */
export function sameOriginHeaders(baseUrl: string): Record<string, string> {
  return { origin: baseUrl, 'sec-fetch-site': 'same-origin' };
}

export class AdminClient {
  cookie: string | null = null;
  csrfToken: string | null = null;

  constructor(readonly baseUrl: string) {}

  /** Signs in with { token } or { email, password }; keeps the cookie and CSRF token on success. */
  async signIn(credentials: Record<string, string>): Promise<RawResponse> {
    const res = await this.send('POST', '/session', credentials);
    if (res.status === 200) {
      const setCookie = String(res.headers['set-cookie']);
      this.cookie = setCookie.split(';')[0];
      this.csrfToken = res.json().csrfToken;
    }
    return res;
  }

  send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
    const all: Record<string, string> = { ...sameOriginHeaders(this.baseUrl) };
    if (this.cookie !== null) all.cookie = this.cookie;
    if (this.csrfToken !== null && method !== 'GET') all['x-csrf-token'] = this.csrfToken;
    if (body !== undefined) all['content-type'] = 'application/json';
    return call(`${this.baseUrl}/admin/api${path}`, { method, headers: { ...all, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the body in the shape it then asserts
  async ok<T = any>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.json<T>();
  }
}

export const TEST_MODEL = 'claude-sonnet-4-6';

/** A new customer and a user of it, signed in: the caller an operator-only endpoint must refuse. */
export async function signedInCustomerUser(operator: AdminClient, customerName: string, email: string, password: string): Promise<{ customerId: string; user: AdminClient }> {
  const { customer } = await operator.ok('POST', '/customers', { name: customerName });
  await operator.ok('POST', `/customers/${customer.id}/users`, { email, password });
  const user = new AdminClient(operator.baseUrl);
  const res = await user.signIn({ email, password });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${res.text}`);
  return { customerId: customer.id, user };
}

/** One small request on the messages surface with a gateway key. */
export function callMessages(baseUrl: string, key: string, model = TEST_MODEL): Promise<RawResponse> {
  return call(`${baseUrl}/gateway/v1/messages`, { headers: bearer(key), body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }) });
}

/** One small request on the chat-completions surface with a gateway key. */
export function callChat(baseUrl: string, key: string): Promise<RawResponse> {
  return call(`${baseUrl}/gateway/openai/v1/chat/completions`, { headers: bearer(key), body: JSON.stringify({ model: TEST_MODEL, messages: [{ role: 'user', content: 'hi' }] }) });
}
