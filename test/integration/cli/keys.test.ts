import t from 'tap';
import { join } from 'node:path';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { KeyCache } from '../../../src/keys/key-cache.js';
import { parseKey } from '../../../src/keys/key-format.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { cliOn, tempCli } from './fixtures/cli.js';

t.test('keys create prints the key alone; the key authenticates', async (t) => {
  const { cli, url } = tempCli(t);
  const run = await cli('keys', 'create', '--customer', 'acme', '--name', 'laptop', '--models', 'm1,m2', '--rpm', '60', '--tpm', '1000');
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stderr, '');
  t.match(run.stdout, /^mgw_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}\n$/);
  const key = run.stdout.trim();

  const db = openDatabase(url);
  t.teardown(() => db.close());
  const cache = new KeyCache(new SqliteKeyStore(db));
  await cache.start();
  t.teardown(() => cache.close());
  const auth = cache.authenticate(key);
  if (!auth.ok) throw new Error(`refused: ${auth.reason}`);
  t.match(auth.principal, { customerName: 'acme', rpm: 60, tpm: 1000 });
  t.same([...(auth.principal.allowedModels ?? [])], ['m1', 'm2']);
});

t.test('keys create --json gives id, key, prefix and customer', async (t) => {
  const { cli } = tempCli(t);
  const run = await cli('keys', 'create', '--customer', 'acme', '--expires', '2099-01-01T00:00:00Z', '--json');
  t.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as Record<string, unknown>;
  t.match(out, { customer: 'acme', expiresAt: '2099-01-01T00:00:00.000Z', status: 'active' });
  t.equal(parseKey(String(out.key))?.publicId, out.id);
  t.equal(out.prefix, `mgw_${String(out.id)}`);
});

t.test('keys list shows every column but never the key', async (t) => {
  const { cli } = tempCli(t);
  const a = (await cli('keys', 'create', '--customer', 'acme', '--name', 'ci')).stdout.trim();
  const b = (await cli('keys', 'create', '--customer', 'beta', '--expires', '2099-06-01')).stdout.trim();
  const secrets = [a, b].map((k) => parseKey(k)?.secret ?? 'unparsed');

  const table = await cli('keys', 'list');
  t.equal(table.code, 0);
  const lines = table.stdout.trimEnd().split('\n');
  t.match(lines[0], /^ID\s+PREFIX\s+NAME\s+CUSTOMER\s+CREATED\s+LAST USED\s+EXPIRES\s+STATUS$/);
  t.equal(lines.length, 3);
  t.match(lines[1], new RegExp(`^${parseKey(a)?.publicId}\\s+mgw_\\w+\\s+ci\\s+acme\\s.*\\sactive$`));
  t.match(lines[2], /2099-06-01 00:00:00Z\s+active$/);

  const listed = await cli('keys', 'list', '--customer', 'beta', '--json');
  const rows = JSON.parse(listed.stdout) as Array<{ id: string; customerName: string }>;
  t.same(rows.map((r) => r.customerName), ['beta']);
  for (const out of [table.stdout, listed.stdout]) for (const s of secrets) t.notOk(out.includes(s), 'no secret listed');
});

t.test('keys revoke', async (t) => {
  const { cli, url } = tempCli(t);
  const key = (await cli('keys', 'create', '--customer', 'acme')).stdout.trim();
  const id = parseKey(key)?.publicId ?? '';
  t.same(await cli('keys', 'revoke', id), { code: 0, stdout: `revoked ${id}\n`, stderr: '' });
  t.same(await cli('keys', 'revoke', `mgw_${id}`), { code: 0, stdout: `${id} was already revoked\n`, stderr: '' });
  t.match(await cli('keys', 'list'), { stdout: /revoked\n$/ });
  const db = openDatabase(url);
  t.teardown(() => db.close());
  t.equal((await new SqliteKeyStore(db).getKey(id))?.status, 'revoked');
});

t.test('keys revoke never prints the secret, whatever it is given', async (t) => {
  const { cli } = tempCli(t);
  const key = (await cli('keys', 'create', '--customer', 'acme')).stdout.trim();
  const { publicId: id, secret } = parseKey(key)!;
  // A key pasted with stray whitespace or an invisible character around it still names its key.
  for (const pasted of [`${key} `, ` ${key}\n`, `${key}\t`, `\u200b${key}\u00a0`]) {
    const run = await cli('keys', 'revoke', pasted);
    t.equal(run.code, 0, JSON.stringify(pasted));
    t.match(run.stdout, new RegExp(`^(revoked ${id}|${id} was already revoked)\n$`), JSON.stringify(pasted));
    t.equal(run.stderr, '');
  }
  // Key-looking strings that name no key: the refusal may quote an id, never a secret.
  const other = 'Zz9Zz9Zz9Zz9Zz9Z';
  const cases: Array<[string, RegExp]> = [
    [`mgw_${other}_${secret} `, new RegExp(`no key with id "${other}"`)],
    [`mgw_${other}_${secret.slice(0, 20)}`, new RegExp(`no key with id "${other}"`)],
    [`mgw_${other}${secret}`, /no key with id \(not shown: 59 characters\)/],
    [secret, /no key with id \(not shown: 43 characters\)/],
    [` ${secret}\n`, /no key with id \(not shown: 43 characters\)/],
    ['mgw_', /expected one key id/],
  ];
  for (const [arg, reason] of cases) {
    const run = await cli('keys', 'revoke', arg);
    t.not(run.code, 0, JSON.stringify(arg));
    t.match(run.stderr, reason, JSON.stringify(arg));
    t.match(run.stderr, /^model-gateway keys: [^\n]+\n$/, 'one line');
    for (const out of [run.stdout, run.stderr]) t.notOk(out.includes(secret.slice(0, 12)), `no part of the secret: ${JSON.stringify(arg)}`);
  }
});

t.test('bad arguments and unknown names fail with one line on stderr', async (t) => {
  const { cli } = tempCli(t);
  await cli('keys', 'create', '--customer', 'acme');
  const cases: Array<[string[], number, RegExp]> = [
    [[], 2, /expected create, list, update or revoke/],
    [['rotate'], 2, /expected create, list, update or revoke/],
    [['create'], 2, /--customer is required/],
    [['create', '--customer'], 2, /option --customer needs a value/],
    [['create', '--customer', 'a', '--rpm', '0'], 2, /--rpm must be a positive integer/],
    [['create', '--customer', 'a', '--tpm', '1e3'], 2, /--tpm must be a positive integer/],
    [['create', '--customer', 'a', '--colour', 'red'], 2, /unknown option --colour/],
    [['create', '--customer', 'a', '--expires', 'next week'], 1, /not an ISO-8601 date/],
    [['create', '--customer', 'a', '--expires', '2001-01-01'], 1, /in the past/],
    [['create', '--customer', 'a', '--models', 'm1,,m2'], 1, /model ids/],
    [['list', '--customer', 'nobody'], 1, /no customer named "nobody"/],
    [['list', 'extra'], 2, /unexpected argument/],
    [['revoke'], 2, /expected one key id/],
    [['revoke', 'a', 'b'], 2, /expected one key id/],
    [['revoke', 'nope'], 1, /no key with id "nope"/],
  ];
  for (const [argv, code, reason] of cases) {
    const run = await cli('keys', ...argv);
    t.equal(run.code, code, argv.join(' '));
    t.equal(run.stdout, '', argv.join(' '));
    t.match(run.stderr, reason, argv.join(' '));
    t.match(run.stderr, /^model-gateway keys: [^\n]+\n$/, 'exactly one line');
  }
  t.equal((await cli('keys', 'list', '--json')).stdout.match(/"id"/g)?.length, 1, 'refused commands created nothing');
});

t.test('an unopenable database fails with one line, never showing credentials', async (t) => {
  const dir = t.testdir({ 'plain-file': 'x', 'junk.db': 'not a database '.repeat(100) });
  const cases: Array<[string, RegExp]> = [
    [`file:${join(dir, 'plain-file', 'gw.db')}`, /cannot open database/],
    [`file:${join(dir, 'junk.db')}`, /cannot open database .*junk\.db: file is not a database/],
    ['postgres://admin:hunter2@127.0.0.1:1/gw', /cannot open the PostgreSQL database: .*ECONNREFUSED/],
    ['mysql://db/gw', /DATABASE_URL must start with/],
  ];
  for (const [url, reason] of cases) {
    for (const argv of [['keys', 'list'], ['usage']] as const) {
      const run = await cliOn(url)(argv[0], ...argv.slice(1));
      t.equal(run.code, 1, `${argv.join(' ')} on ${url}`);
      t.match(run.stderr, reason);
      t.match(run.stderr, /^model-gateway \w+: [^\n]+\n$/);
      t.notOk(run.stderr.includes('hunter2'));
    }
  }
});
