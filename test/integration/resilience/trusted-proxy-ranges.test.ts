// GATEWAY_TRUSTED_PROXIES as a CIDR range (finding N4: behind a shared ingress address one client locked
// every other out). The test client connects from 127.0.0.1, inside 127.0.0.0/8: with the range set,
// the key throttle and the sign-in throttle count the client X-Forwarded-For names; without it the
// header is ignored and every client behind the address shares one count.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from '../dashboard/dashboard-harness.js';

const messagesBody = () => JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
const badKeyFrom = (client: string) => bearer('mgw_bad_key', { 'x-forwarded-for': `6.6.6.6, ${client}` });

for (const [setting, believed] of [['127.0.0.0/8', true], [undefined, false]] as const) {
  const env: Record<string, string> = setting === undefined ? {} : { GATEWAY_TRUSTED_PROXIES: setting };
  const label = setting === undefined ? 'no trusted proxies' : `trusted proxies ${setting}`;

  t.test(`${label}: the key throttle ${believed ? 'counts each forwarded client' : 'ignores X-Forwarded-For'}`, async (t) => {
    const h = await startHarness({ env: { GATEWAY_AUTH_FAILURES_PER_MINUTE: '2', ...env } });
    t.teardown(() => h.close());
    const url = `${h.url}/gateway/v1/messages`;
    for (let i = 0; i < 2; i++) t.equal((await call(url, { body: messagesBody(), headers: badKeyFrom('203.0.113.9') })).status, 401);
    t.equal((await call(url, { body: messagesBody(), headers: badKeyFrom('203.0.113.9') })).status, 429, 'the failing client is throttled');
    const other = await call(url, { body: messagesBody(), headers: badKeyFrom('198.51.100.7') });
    t.equal(other.status, believed ? 401 : 429, believed ? 'another client behind the range is not' : 'the header names nobody: the peer address is throttled');
  });

  t.test(`${label}: the sign-in throttle ${believed ? 'counts each forwarded client' : 'ignores X-Forwarded-For'}`, async (t) => {
    const h = await startDashboardHarness({ throttle: { address: { maxFailures: 2, windowMs: 600_000 } } }, { env });
    t.teardown(() => h.close());
    const c = new AdminClient(h.url);
    for (let i = 0; i < 2; i++) {
      const res = await c.send('POST', '/session', { email: `user${i}@x.example`, password: 'wrong password 1' }, { 'x-forwarded-for': '203.0.113.7' });
      t.equal(res.status, 401);
    }
    t.equal((await c.send('POST', '/session', { token: ADMIN_TOKEN }, { 'x-forwarded-for': '203.0.113.7' })).status, 429, 'the guessing client is throttled');
    const other = await c.send('POST', '/session', { token: ADMIN_TOKEN }, { 'x-forwarded-for': '198.51.100.4' });
    t.equal(other.status, believed ? 200 : 429, believed ? 'another client behind the range signs in' : 'the header names nobody: the peer address is throttled');
  });
}
