// The admin token as a bearer on /admin/api: only "Bearer <admin token>" is an operator; any other
// Authorization is a 401 in the admin API's error shape, and wrong ones are throttled like failed sign-ins.
import t from 'tap';
import { call } from '../../helpers/http.js';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from './dashboard-harness.js';

/** The gateway believes X-Forwarded-For from the test client, so each call can come from its own address. */
const BEHIND_PROXY = { env: { GATEWAY_TRUSTED_PROXIES: '127.0.0.1' } };
const from = (ip: string) => ({ 'x-forwarded-for': ip });

t.test('a malformed Authorization header is a 401, never an operator', async (t) => {
  // Each call from an address of its own: this test is about the answer, not the throttle.
  const h = await startDashboardHarness({}, BEHIND_PROXY);
  t.teardown(() => h.close());
  const operator = new AdminClient(h.url);
  await operator.signIn({ token: ADMIN_TOKEN });
  const malformed = [
    '',
    ' ',
    'Bearer',
    'Bearer ',
    'Bearer  ',
    ADMIN_TOKEN,
    `Basic ${Buffer.from(`operator:${ADMIN_TOKEN}`).toString('base64')}`,
    `Token ${ADMIN_TOKEN}`,
    `Bearer ${ADMIN_TOKEN} extra`,
    `Bearer ${ADMIN_TOKEN.slice(0, -1)}`,
  ];
  for (const [i, authorization] of malformed.entries()) {
    const res = await call(`${h.url}/admin/api/customers`, { headers: { authorization, ...from(`203.0.113.${i}`) } });
    t.equal(res.status, 401, `Authorization: ${JSON.stringify(authorization)}`);
    t.same(res.json().error, { message: 'The Authorization header is not "Bearer <admin token>".', type: 'invalid_request_error', param: null, code: 'unauthenticated' });
    t.notOk(res.text.includes(ADMIN_TOKEN), 'the answer never carries the admin token');
  }
  const withCookie = await operator.send('GET', '/customers', undefined, { authorization: 'Basic x', ...from('198.51.100.1') });
  t.equal(withCookie.status, 401, 'a malformed header is refused even beside an operator session cookie');
  t.equal((await call(`${h.url}/admin/api/customers`, { headers: { authorization: `bearer ${ADMIN_TOKEN}`, ...from('198.51.100.2') } })).status, 200, 'the scheme is case-insensitive');
});

t.test('wrong bearer tokens are throttled per client address, like failed sign-ins; the right one never is', async (t) => {
  const h = await startDashboardHarness({}, BEHIND_PROXY);
  t.teardown(() => h.close());
  const get = (address: string, authorization: string) => call(`${h.url}/admin/api/customers`, { headers: { authorization, ...from(address) } });

  const seen: number[] = [];
  for (let i = 0; i < 10; i++) seen.push((await get('203.0.113.7', `Bearer wrong-token-${i}`)).status);
  t.ok(seen.every((s) => s === 401 || s === 429), seen.join(' '));
  t.ok(seen.includes(429), 'the guessing address is throttled');
  const refused = await get('203.0.113.7', 'Bearer wrong-token-again');
  t.equal(refused.status, 429, 'another wrong token from there waits');
  t.equal(refused.json().error.code, 'rate_limit_exceeded');
  t.ok(Number(refused.headers['retry-after']) > 0);
  // Finding N4: behind a shared ingress address one guessing client locked every admin script out.
  t.equal((await get('203.0.113.7', `Bearer ${ADMIN_TOKEN}`)).status, 200, 'the right token is never throttled, even from the address that guessed');
  t.equal((await new AdminClient(h.url).send('POST', '/session', { token: ADMIN_TOKEN }, from('203.0.113.7'))).status, 429, 'one throttle: sign-in from there waits too');

  for (let i = 0; i < 20; i++) {
    t.equal((await get('198.51.100.4', `Bearer ${ADMIN_TOKEN}`)).status, 200, `script call ${i + 1} from another address`);
  }
});
