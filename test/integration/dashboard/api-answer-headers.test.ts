// Every /admin/api answer says "do not cache" and "do not sniff", whoever answers it: a handler, the
// dispatcher's refusals, the body stages, the error boundary, the gateway's own 405 and load shedding.
import t from 'tap';
import { call } from '../../helpers/http.js';
import { AdminClient, ADMIN_TOKEN, sameOriginHeaders, startDashboardHarness } from './dashboard-harness.js';

t.test('no-store and nosniff on every admin API answer', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const api = `${h.url}/admin/api`;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const json = { ...admin, 'content-type': 'application/json' };
  const op = new AdminClient(h.url);
  await op.signIn({ token: ADMIN_TOKEN });

  const cases: Array<{ name: string; status: number; send: () => ReturnType<typeof call> }> = [
    { name: 'a read', status: 200, send: () => call(`${api}/customers`, { headers: admin }) },
    { name: 'a creation', status: 201, send: () => call(`${api}/customers`, { method: 'POST', headers: json, body: '{"name":"acme"}' }) },
    { name: 'a sign-in', status: 200, send: () => call(`${api}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: ADMIN_TOKEN }) }) },
    { name: 'a missing field', status: 400, send: () => call(`${api}/customers`, { method: 'POST', headers: json, body: '{}' }) },
    { name: 'not signed in', status: 401, send: () => call(`${api}/customers`) },
    { name: 'a wrong bearer token', status: 401, send: () => call(`${api}/customers`, { headers: { authorization: 'Bearer nope' } }) },
    { name: 'a cross-site state change', status: 403, send: () => op.send('POST', '/customers', { name: 'x' }, { ...sameOriginHeaders(h.url), 'sec-fetch-site': 'cross-site' }) },
    { name: 'an unknown endpoint', status: 404, send: () => call(`${api}/no-such-thing`, { headers: admin }) },
    { name: 'an unknown customer', status: 404, send: () => call(`${api}/customers/cus_nope`, { headers: admin }) },
    { name: 'a method the path lacks (dispatcher)', status: 405, send: () => call(`${api}/customers`, { method: 'DELETE', headers: admin }) },
    { name: 'a method no admin route has (gateway)', status: 405, send: () => call(`${api}/session`, { method: 'PUT', headers: json, body: '{}' }) },
    { name: 'a body over 64 KiB', status: 413, send: () => call(`${api}/customers`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'x'.repeat(70_000) }) }) },
    { name: 'a body that is not JSON', status: 415, send: () => call(`${api}/customers`, { method: 'POST', headers: { ...admin, 'content-type': 'text/plain' }, body: 'name=acme' }) },
    { name: 'a malformed JSON body', status: 400, send: () => call(`${api}/customers`, { method: 'POST', headers: json, body: '{"name":' }) },
    {
      name: 'a handler that throws',
      status: 500,
      send: async () => {
        const listCustomers = h.built.stores.keys.listCustomers;
        h.built.stores.keys.listCustomers = () => Promise.reject(new Error('the database went away'));
        try {
          return await call(`${api}/customers`, { headers: admin });
        } finally {
          h.built.stores.keys.listCustomers = listCustomers;
        }
      },
    },
    {
      name: 'load shedding',
      status: 503,
      send: async () => {
        const { lifecycle } = h.runtime;
        lifecycle.inFlight += h.runtime.config.limits.maxInFlight;
        try {
          return await call(`${api}/customers`, { headers: admin });
        } finally {
          lifecycle.inFlight -= h.runtime.config.limits.maxInFlight;
        }
      },
    },
  ];
  for (const c of cases) {
    const res = await c.send();
    t.equal(res.status, c.status, `${c.name}: status (${res.text.slice(0, 120)})`);
    t.equal(res.headers['cache-control'], 'no-store', `${c.name}: cache-control`);
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${c.name}: x-content-type-options`);
    t.match(String(res.headers['content-type']), /^application\/json/, `${c.name}: JSON`);
  }

  await t.test('pages keep their own caching rule, and other routes are untouched', async (t) => {
    const page = await call(`${h.url}/dashboard/customers`);
    t.equal(page.headers['cache-control'], 'no-cache');
    const health = await call(`${h.url}/healthz`);
    t.equal(health.headers['cache-control'], undefined);
    const unknown = await call(`${h.url}/no-such-path`);
    t.equal(unknown.status, 404);
    t.equal(unknown.headers['cache-control'], undefined);
  });
});
