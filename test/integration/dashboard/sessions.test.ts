// Sessions: cookie attributes, sign-out, the bearer admin token, and refusal of cross-site state changes.
import t from 'tap';
import { buildDashboard } from '../../../src/apps/serve/build-admin.js';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { createHttpServer, listen } from '../../../src/gateway/server.js';
import { call } from '../../helpers/http.js';
import { AdminClient, ADMIN_TOKEN, sameOriginHeaders, startDashboardHarness } from './dashboard-harness.js';

t.test('sessions and cross-site protection', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());

  await t.test('the session cookie is HttpOnly, SameSite=Strict, and Secure behind TLS', async (t) => {
    const plain = await call(`${h.url}/admin/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: ADMIN_TOKEN }) });
    t.equal(plain.status, 200);
    const cookie = String(plain.headers['set-cookie']);
    t.match(cookie, /^mgw_session=[\w-]{43}; /);
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/', 'Max-Age=43200']) t.ok(cookie.includes(attribute), attribute);
    t.notOk(cookie.includes('Secure'), 'not Secure over plain HTTP');
    const proxied = await call(`${h.url}/admin/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    t.ok(String(proxied.headers['set-cookie']).includes('; Secure'), 'Secure when the proxy says https');
    t.notOk(h.logText().includes(ADMIN_TOKEN), 'the token is not logged');
  });

  await t.test('sign-out ends the session on the server', async (t) => {
    const op = new AdminClient(h.url);
    await op.signIn({ token: ADMIN_TOKEN });
    t.equal((await op.send('GET', '/customers')).status, 200);
    const out = await op.send('DELETE', '/session');
    t.equal(out.status, 200);
    t.match(String(out.headers['set-cookie']), /mgw_session=; .*Max-Age=0/);
    t.equal((await op.send('GET', '/customers')).status, 401, 'the old cookie no longer works');
  });

  await t.test('state changes need same-origin requests and the session token', async (t) => {
    const op = new AdminClient(h.url);
    await op.signIn({ token: ADMIN_TOKEN });
    const body = { name: 'evil-corp' };
    const cases: Array<[string, Record<string, string>]> = [
      ['Origin of another site', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
      ['Origin alone, foreign', { origin: 'http://127.0.0.1:1' }],
      ['Origin null', { origin: 'null' }],
      ['no CSRF token', { 'x-csrf-token': '' }],
      ['wrong CSRF token', { 'x-csrf-token': 'not-the-token' }],
    ];
    for (const [name, headers] of cases) {
      const res = await op.send('POST', '/customers', body, { ...sameOriginHeaders(h.url), ...headers });
      t.equal(res.status, 403, `${name}: ${res.text}`);
    }
    const signOut = await op.send('DELETE', '/session', undefined, { origin: 'https://evil.example' });
    t.equal(signOut.status, 403, 'cross-site sign-out refused too');
    const crossSiteSignIn = await call(`${h.url}/admin/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    t.equal(crossSiteSignIn.status, 403, 'cross-site sign-in refused (login CSRF)');
    t.equal((await op.ok('GET', '/customers')).customers.length, 0, 'nothing was created');
    t.equal((await op.send('POST', '/customers', body)).status, 201, 'the same call from the page itself works');
  });

  await t.test('scripts may use the admin token as a bearer, without cookies or CSRF token', async (t) => {
    const res = await call(`${h.url}/admin/api/customers`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: '{"name":"scripted"}' });
    t.equal(res.status, 201, res.text);
    const wrong = await call(`${h.url}/admin/api/customers`, { headers: { authorization: 'Bearer mgwadm_wrong' } });
    t.equal(wrong.status, 401);
    t.equal(wrong.json().error.code, 'unauthenticated');
  });

  await t.test('a new admin token ends the sessions started with the old one', async (t) => {
    const op = new AdminClient(h.url);
    await op.signIn({ token: ADMIN_TOKEN });
    // A second gateway on the same database, started with a rotated token.
    const rotated = createHttpServer(
      createGateway(h.runtime, buildDashboard(h.runtime, { stores: h.built.stores, adminToken: 'mgwadm_rotated_admin_token_0123456789' })),
      h.runtime.config.limits,
    );
    const address = await listen(rotated, 0, '127.0.0.1');
    t.teardown(() => {
      rotated.closeAllConnections();
      return new Promise<void>((resolve) => rotated.close(() => resolve()));
    });
    const sameCookie = new AdminClient(`http://127.0.0.1:${address.port}`);
    sameCookie.cookie = op.cookie;
    t.equal((await sameCookie.send('GET', '/customers')).status, 401, 'the old operator session is refused');
    t.equal((await op.send('GET', '/customers')).status, 200, 'where the token is unchanged it still works');
  });

  await t.test('unknown endpoints and methods', async (t) => {
    const op = new AdminClient(h.url);
    await op.signIn({ token: ADMIN_TOKEN });
    t.equal((await op.send('GET', '/nothing-here')).status, 404);
    t.equal((await op.send('DELETE', '/customers')).status, 405);
  });
});

t.test('pages and assets are served with a strict content security policy', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  for (const path of ['/dashboard', '/dashboard/', '/dashboard/customers/cus_x/keys']) {
    const res = await call(`${h.url}${path}`);
    t.equal(res.status, 200, path);
    t.match(res.headers['content-type'], /^text\/html/);
    t.match(res.headers['content-security-policy'], /script-src 'self'/);
    t.match(res.text, /<script type="module" src="\/dashboard\/assets\/app.js">/);
  }
  const js = await call(`${h.url}/dashboard/assets/app.js`);
  t.equal(js.status, 200);
  t.match(js.headers['content-type'], /^text\/javascript/);
  for (const path of ['/dashboard/assets/missing.js', '/dashboard/assets/..%2f..%2froutes.ts', '/dashboard/routes.ts', '/dashboard/../package.json']) {
    t.equal((await call(`${h.url}${path}`)).status, 404, path);
  }
});
