// `model-gateway audit` through the command dispatcher, as the binary runs it, on a real SQLite file:
// every change made with the CLI is one row (who: cli@<host>), newest first, filtered by customer and
// time; the key's secret reaches neither the output nor any byte of the database; control characters
// in a stored row are shown escaped.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseKey } from '../../../src/keys/key-format.js';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteAuditStore } from '../../../src/stores/sqlite/sqlite-audit-store.js';
import { tempCli } from '../../helpers/temp-cli.js';

// Each command that opens the database starts and stops the usage write thread: seconds on a busy machine.
t.setTimeout(300_000);

const nonce = () => randomBytes(6).toString('hex');

/** Every byte of the database's folder (the file, its WAL and shared memory), as Latin-1 text to search. */
function storeBytes(url: string): string {
  const dir = dirname(fileURLToPath(url.replace(/^file:/, 'file://')));
  return readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1')).join('\n');
}

t.test('create, limits, budget, revoke: one row each, newest first, no secret anywhere', async (t) => {
  const { cli, url } = tempCli(t);
  const customer = `acme-${nonce()}`;
  const label = `laptop-${nonce()}`;
  const created = await cli('keys', 'create', '--customer', customer, '--name', label, '--rpm', '60', '--budget', '5');
  t.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim();
  const parsed = parseKey(key);
  if (parsed === null) throw new Error('no key printed');
  t.equal((await cli('customers', 'limits', customer, '--rpm', '600')).code, 0);
  t.equal((await cli('customers', 'budget', customer, '--amount', '25')).code, 0);
  t.equal((await cli('customers', 'limits', customer)).code, 0, 'showing limits changes nothing');
  t.equal((await cli('keys', 'revoke', parsed.publicId)).code, 0);
  t.equal((await cli('keys', 'revoke', parsed.publicId)).code, 0, 'revoking again changes nothing');

  const table = await cli('audit');
  t.equal(table.code, 0, table.stderr);
  t.equal(table.stderr, '');
  const lines = table.stdout.trimEnd().split('\n');
  t.match(lines[0], /^TIME\s+ACTOR\s+ADDRESS\s+ACTION\s+CUSTOMER\s+TARGET\s+CHANGE$/);
  t.equal(lines.length, 6, 'five changes, one row each');
  const actor = `cli@${hostname()}`;
  const expected: Array<[string, string, string]> = [
    ['key.revoke', parsed.publicId, 'status: "active" → "revoked"'],
    ['customer.budget', '', 'budget: none → 25.00 USD per month (hard)'],
    ['customer.limits', '', 'rpm: none → 600'],
    ['key.create', parsed.publicId, `name: "${label}"`],
    ['customer.create', '', `name: "${customer}"`],
  ];
  expected.forEach(([action, target, change], i) => {
    const line = lines[i + 1];
    t.same(line.split(/\s{2,}/).slice(1, 5), [actor, '-', action, customer], `row ${i + 1} is ${action} by ${actor}: ${line}`);
    if (target !== '') t.ok(line.includes(target), `row ${i + 1} names the key`);
    t.ok(line.includes(change), `row ${i + 1} says what changed: ${change}`);
  });

  const listed = await cli('audit', '--json');
  t.equal(listed.code, 0, listed.stderr);
  const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
  t.same(rows.map((r) => r.action), expected.map(([action]) => action));
  t.match(rows[3], { actor, address: null, customerName: customer, targetId: parsed.publicId, before: null, after: { name: label, rpm: 60, budget: { amountUsd: '5.00', period: 'month', mode: 'hard' }, status: 'active' } });
  t.match(rows[0], { before: { status: 'active' }, after: { status: 'revoked' } });

  for (const [what, text] of [['the table', table.stdout], ['the JSON', listed.stdout], ['the database files', storeBytes(url)]] as const) {
    t.notOk(text.includes(parsed.secret), `the key's secret is not in ${what}`);
    t.notOk(text.includes(key), `the full key is not in ${what}`);
  }
});

t.test('--customer and --since filter; bad arguments are one line', async (t) => {
  const { cli } = tempCli(t);
  t.equal((await cli('keys', 'create', '--customer', 'alpha')).code, 0);
  t.equal((await cli('keys', 'create', '--customer', 'beta')).code, 0);
  const beta = JSON.parse((await cli('audit', '--customer', 'beta', '--json')).stdout) as Array<{ customerName: string; action: string }>;
  t.same(beta.map((r) => [r.customerName, r.action]), [['beta', 'key.create'], ['beta', 'customer.create']]);
  const today = new Date().toISOString().slice(0, 10);
  t.equal(JSON.parse((await cli('audit', '--since', today, '--json')).stdout).length, 4, 'since today: all of them');
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  t.same(await cli('audit', '--since', tomorrow), { code: 0, stdout: 'no audit entries for these filters\n', stderr: '' });
  t.same(await cli('audit', '--since', `${tomorrow}T00:00:00Z`, '--json'), { code: 0, stdout: '[]\n', stderr: '' });

  const bad = await cli('audit', '--since', 'yesterday');
  t.equal(bad.code, 2);
  t.match(bad.stderr, /^model-gateway audit: --since must be a date YYYY-MM-DD \(UTC\) or an ISO 8601 time with its zone, got "yesterday"\n$/);
  const unknown = await cli('audit', '--customer', 'gamma');
  t.equal(unknown.code, 1);
  t.equal(unknown.stderr, 'model-gateway audit: no customer named "gamma"\n');
});

t.test('control characters in a stored row are shown escaped in the table', async (t) => {
  const { cli, url } = tempCli(t);
  t.equal((await cli('keys', 'create', '--customer', 'acme')).code, 0, 'the database exists');
  // A refused sign-in records the e-mail tried, and an e-mail address may hold control characters.
  const db = openDatabase(url);
  t.teardown(() => db.close());
  await new SqliteAuditStore(db).append({
    at: new Date(),
    actor: 'evil\u001b[2J\u001b]0;owned\u0007@example.com',
    address: '203.0.113.9',
    action: 'session.sign_in_failed',
    customerId: null,
    targetId: null,
    before: null,
    after: null,
  });
  const table = await cli('audit');
  t.equal(table.code, 0, table.stderr);
  t.notMatch(table.stdout, /[\u0000-\u0009\u000b-\u001f\u007f]/, 'no raw control character reaches the terminal');
  t.ok(table.stdout.includes('evil\\x1b[2J\\x1b]0;owned\\x07@example.com'), table.stdout);
});
