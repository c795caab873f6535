// The admin trail over real HTTP: every change made through the admin API is one row (who, from where,
// what, before → after), sign-ins and refused sign-ins included; operators read every row, a customer
// user only its own customer's (tenant isolation on the server); no secret (gateway key, password, admin
// token, a wrong token tried) reaches an answer, the log or any byte of the database.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../../helpers/http.js';
import { AdminClient, ADMIN_TOKEN, startDashboardHarness } from './dashboard-harness.js';

const nonce = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex')}`;

interface Row {
  id: string;
  at: string;
  actor: string;
  address: string | null;
  action: string;
  customerId: string | null;
  customerName: string | null;
  targetId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  change: string;
}

t.test('every change through the admin API is one row; operators see all, a customer user its own only', async (t) => {
  const h = await startDashboardHarness();
  t.teardown(() => h.close());
  const secrets: string[] = [ADMIN_TOKEN];
  const wrongToken = nonce('mgwadm_wrong_token_of_at_least_32_chars');
  secrets.push(wrongToken);

  const intruder = new AdminClient(h.url);
  t.equal((await intruder.signIn({ token: wrongToken })).status, 401);
  const operator = new AdminClient(h.url);
  t.equal((await operator.signIn({ token: ADMIN_TOKEN })).status, 200);
  const { customer: alpha } = await operator.ok('POST', '/customers', { name: 'alpha' });
  const { customer: beta } = await operator.ok('POST', '/customers', { name: 'beta' });
  const password = nonce('initial password');
  secrets.push(password);
  const { user: ann } = await operator.ok('POST', `/customers/${alpha.id}/users`, { email: 'ann@alpha.example', password });
  const operatorKey = await operator.ok('POST', `/customers/${alpha.id}/keys`, { name: 'ci', rpm: 60 });
  secrets.push(operatorKey.secret);
  const betaKey = await operator.ok('POST', `/customers/${beta.id}/keys`, { name: 'beta key' });
  secrets.push(betaKey.secret);
  await operator.ok('POST', `/customers/${alpha.id}/limits`, { rpm: 600 });
  await operator.ok('POST', `/customers/${alpha.id}/budget`, { amountUsd: '25' });

  const wrongPassword = nonce('wrong password');
  secrets.push(wrongPassword);
  t.equal((await new AdminClient(h.url).signIn({ email: 'ann@alpha.example', password: wrongPassword })).status, 401);
  const annClient = new AdminClient(h.url);
  t.equal((await annClient.signIn({ email: 'ann@alpha.example', password })).status, 200);
  const annKey = await annClient.ok('POST', `/customers/${alpha.id}/keys`, { name: 'mine', rpm: 10 });
  secrets.push(annKey.secret);
  await annClient.ok('DELETE', `/customers/${alpha.id}/keys/${annKey.key.id}`);
  const newPassword = nonce('new password');
  secrets.push(newPassword);
  await annClient.ok('POST', '/session/password', { currentPassword: password, newPassword });
  // A script with the bearer token is the operator too.
  const script = await call(`${h.url}/admin/api/customers/${beta.id}/keys/${betaKey.key.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  t.equal(script.status, 200, script.text);

  const all = (await operator.ok<{ entries: Row[] }>('GET', '/audit')).entries;
  const expected: Array<[string, string, string | null, string | null]> = [
    ['key.revoke', 'operator', beta.id, betaKey.key.id],
    ['user.password', 'ann@alpha.example', alpha.id, ann.id],
    ['key.revoke', 'ann@alpha.example', alpha.id, annKey.key.id],
    ['key.create', 'ann@alpha.example', alpha.id, annKey.key.id],
    ['session.sign_in', 'ann@alpha.example', alpha.id, ann.id],
    ['session.sign_in_failed', 'ann@alpha.example', alpha.id, ann.id],
    ['customer.budget', 'operator', alpha.id, alpha.id],
    ['customer.limits', 'operator', alpha.id, alpha.id],
    ['key.create', 'operator', beta.id, betaKey.key.id],
    ['key.create', 'operator', alpha.id, operatorKey.key.id],
    ['user.create', 'operator', alpha.id, ann.id],
    ['customer.create', 'operator', beta.id, beta.id],
    ['customer.create', 'operator', alpha.id, alpha.id],
    ['session.sign_in', 'operator', null, null],
    ['session.sign_in_failed', 'operator', null, null],
  ];
  t.same(all.map((r) => [r.action, r.actor, r.customerId, r.targetId]), expected, 'one row per change, newest first');
  for (const r of all) t.match(r.address, /^(::ffff:)?127\.0\.0\.1$/, `${r.action}: the client's address`);
  const byAction = (action: string, actor: string) => all.find((r) => r.action === action && r.actor === actor) as Row;
  t.match(byAction('customer.limits', 'operator'), { customerName: 'alpha', before: { rpm: null, tpm: null }, after: { rpm: 600, tpm: null }, change: 'rpm: none → 600' });
  t.match(byAction('customer.budget', 'operator'), { change: 'budget: none → 25.00 USD per month (hard)' });
  t.match(byAction('key.revoke', 'ann@alpha.example'), { before: { name: 'mine', status: 'active' }, after: { status: 'revoked' }, change: 'status: "active" → "revoked"' });
  t.match(byAction('user.create', 'operator'), { after: { email: 'ann@alpha.example' } });
  t.same(byAction('user.password', 'ann@alpha.example').after, { otherSessionsEnded: 0 }, 'that it changed, never to what');

  await t.test('filters: customer, since, limit; bad values are 400s naming the field', async (t) => {
    const betaRows = (await operator.ok<{ entries: Row[] }>('GET', `/audit?customerId=${beta.id}`)).entries;
    t.same(betaRows.map((r) => r.action), ['key.revoke', 'key.create', 'customer.create']);
    t.same((await operator.ok<{ entries: Row[] }>('GET', '/audit?limit=2')).entries.map((r) => r.id), all.slice(0, 2).map((r) => r.id));
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    t.same((await operator.ok('GET', `/audit?since=${tomorrow}`)).entries, []);
    t.equal((await operator.ok('GET', `/audit?since=${encodeURIComponent(all.at(-1)?.at ?? '')}`)).entries.length, all.length, 'since is inclusive');
    for (const [query, param] of [['since=last-week', 'since'], ['limit=0', 'limit'], ['limit=1001', 'limit']]) {
      const res = await operator.send('GET', `/audit?${query}`);
      t.equal(res.status, 400, query);
      t.equal(res.json().error.param, param);
    }
    t.equal((await operator.send('GET', '/audit?customerId=cus_nobody')).status, 404);
  });

  await t.test("a customer user reads its own customer's rows only", async (t) => {
    const own = (await annClient.ok<{ entries: Row[] }>('GET', `/customers/${alpha.id}/audit`)).entries;
    t.same(
      own.map((r) => r.id),
      all.filter((r) => r.customerId === alpha.id).map((r) => r.id),
      "every row of its customer (the operator's changes and the refused sign-in on its user included), and nothing else",
    );
    t.ok(own.every((r) => r.customerName === 'alpha'));
    const other = await annClient.send('GET', `/customers/${beta.id}/audit`);
    t.equal(other.status, 404, "another customer's trail does not exist for it");
    t.notMatch(other.text, 'beta');
    const everything = await annClient.send('GET', '/audit');
    t.equal(everything.status, 403, 'the whole trail is for operators');
    t.equal((await new AdminClient(h.url).send('GET', `/customers/${alpha.id}/audit`)).status, 401, 'signed out: nothing');
  });

  await t.test('no secret in any answer, the log or the database', async (t) => {
    const answers = [JSON.stringify(all), (await annClient.send('GET', `/customers/${alpha.id}/audit`)).text];
    const database = readdirSync(h.dataDir).map((f) => readFileSync(join(h.dataDir, f)).toString('latin1')).join('\n');
    for (const secret of secrets) {
      for (const [where, text] of [['an audit answer', answers.join('\n')], ['the log', h.logText()], ['the database', database]] as const) {
        t.notOk(text.includes(secret), `${secret.slice(0, 12)}… is not in ${where}`);
      }
    }
  });
});
