// `model-gateway keys update` end to end: the command line as the binary runs it (runCli, in process, as
// the other CLI tests do: 23 runs of the binary, each a process loading the gateway, were most of this
// file's time; `one-line-errors.test.ts` keeps the binary's own stdout, stderr and exit code) on a real
// SQLite file. Only the flags given change, `none` removes a setting, --json prints the key without its
// secret, bad values are one line with the exit code of the other CLI errors, and an edit is one audit row.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { SqliteAuditStore } from '../../../src/stores/sqlite/sqlite-audit-store.js';
import { KeyCache } from '../../../src/keys/key-cache.js';
import { parseKey } from '../../../src/keys/key-format.js';
import { tempCli } from '../../helpers/temp-cli.js';

function cliOnTempFile(t: Test) {
  const { cli, url } = tempCli(t);
  return { cli, url, file: url.slice('file:'.length) };
}

t.test('keys update changes only the flags given; none removes; --json never shows the secret', async (t) => {
  const { cli, url, file } = cliOnTempFile(t);
  const created = await cli('keys', 'create', '--customer', 'acme', '--name', 'ci', '--models', 'claude-haiku-4-5-20251001', '--rpm', '60', '--tpm', '1000', '--budget', '5', '--budget-period', 'day');
  t.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim();
  const parsed = parseKey(key);
  if (parsed === null) throw new Error('unparseable key');
  const id = parsed.publicId;

  const renamed = await cli('keys', 'update', id, '--name', 'nightly');
  t.same(renamed, { code: 0, stdout: `updated ${id}\n`, stderr: '' });

  const run = await cli('keys', 'update', id, '--rpm', 'none', '--tpm', '2000', '--models', 'all', '--expires', '2099-01-31', '--budget-mode', 'soft', '--json');
  t.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as Record<string, unknown>;
  t.match(out, {
    id,
    name: 'nightly',
    customerName: 'acme',
    rpm: null,
    tpm: 2000,
    allowedModels: null,
    expiresAt: '2099-01-31T00:00:00.000Z',
    budget: { amountUsd: '5.00', period: 'day', mode: 'soft' },
    status: 'active',
  });
  t.notOk('key' in out, 'no key member');
  t.notOk(run.stdout.includes(parsed.secret), 'the secret is not printed');

  const moreBudget = await cli('keys', 'update', `mgw_${id}`, '--budget', '12.5', '--json');
  t.match(JSON.parse(moreBudget.stdout), { budget: { amountUsd: '12.50', period: 'day', mode: 'soft' } }, 'the prefix works too; period and mode kept');
  const none = await cli('keys', 'update', id, '--budget', 'none', '--expires', 'none', '--json');
  t.match(JSON.parse(none.stdout), { budget: null, expiresAt: null, name: 'nightly', tpm: 2000 });

  // What a gateway reading this file authenticates the key with.
  const db = openDatabase(url);
  t.teardown(() => db.close());
  const cache = new KeyCache(new SqliteKeyStore(db));
  await cache.start();
  t.teardown(() => cache.close());
  const auth = cache.authenticate(key);
  if (!auth.ok) throw new Error(`refused: ${auth.reason}`);
  t.match(auth.principal, { rpm: null, tpm: 2000, allowedModels: null, keyBudget: null });

  const trail = await new SqliteAuditStore(db).list({});
  const updates = trail.filter((e) => e.action === 'key.update');
  t.equal(updates.length, 4, 'one audit row per edit');
  t.match(updates.find((e) => JSON.stringify(e.after).includes('nightly') && JSON.stringify(e.before).includes('"ci"')), { actor: /^cli@/, targetId: id });
  t.notOk(readFileSync(file).includes(parsed.secret), 'the secret is in no byte of the database');
});

t.test('bad input: one line on stderr, the exit code of the other CLI errors, nothing changed', async (t) => {
  const { cli, url } = cliOnTempFile(t);
  const created = await cli('keys', 'create', '--customer', 'acme', '--name', 'ci', '--rpm', '60', '--json');
  const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };
  const cases: Array<[argv: string[], code: number, line: RegExp]> = [
    [['keys', 'update', id], 2, /^model-gateway keys: nothing to change: give at least one of --name/],
    [['keys', 'update'], 2, /^model-gateway keys: expected one key id \(usage: keys update <id>/],
    [['keys', 'update', id, '--rpm', '0'], 2, /^model-gateway keys: --rpm must be a positive integer or none, got "0"\n$/],
    [['keys', 'update', id, '--tpm', 'lots'], 2, /^model-gateway keys: --tpm must be a positive integer or none, got "lots"\n$/],
    [['keys', 'update', id, '--budget', 'ten'], 2, /^model-gateway keys: --budget must be an amount in USD above 0/],
    [['keys', 'update', id, '--budget-period', 'week'], 2, /^model-gateway keys: --budget-period must be day, month, total, got "week"\n$/],
    [['keys', 'update', id, '--budget', 'none', '--budget-mode', 'soft'], 2, /^model-gateway keys: --budget none takes no --budget-period or --budget-mode\n$/],
    [['keys', 'update', id, '--bogus', '1'], 2, /^model-gateway keys: /],
    [['keys', 'update', id, '--name', 'evil\x1b[2Jname'], 1, /^model-gateway keys: key name must not contain control characters\n$/],
    [['keys', 'update', id, '--expires', '2001-01-01'], 1, /^model-gateway keys: expiry 2001-01-01T00:00:00.000Z is in the past\n$/],
    [['keys', 'update', id, '--budget-mode', 'soft'], 1, /^model-gateway keys: key \w+ has no budget: give an amount/],
    [['keys', 'update', '0000000000000000', '--rpm', '5'], 1, /^model-gateway keys: no key with id "0000000000000000"\n$/],
    [['keys', 'update', key, '--rpm', '5', '--name', 'pasted'], 0, /^$/],
  ];
  for (const [argv, code, line] of cases) {
    const run = await cli(...argv);
    const label = argv.join(' ').replace(/\x1b/g, '\\x1b');
    t.equal(run.code, code, label);
    t.match(run.stderr, line, label);
    if (code !== 0) t.equal(run.stderr.split('\n').length, 2, `one line: ${label}`);
    t.notOk(run.stderr.includes(key.slice(-20)) || run.stdout.includes(key.slice(-20)), `no secret echoed: ${label}`);
  }
  const db = openDatabase(url);
  t.teardown(() => db.close());
  t.match(await new SqliteKeyStore(db).getKey(id), { name: 'pasted', rpm: 5, budget: null }, 'only the valid edit (by the whole key pasted) changed it');

  await cli('keys', 'revoke', id);
  const revoked = await cli('keys', 'update', id, '--rpm', '7');
  t.equal(revoked.code, 1);
  t.match(revoked.stderr, /^model-gateway keys: key \w+ is revoked: it cannot be changed\n$/);
});

t.test('--help describes keys update', async (t) => {
  const { cli } = cliOnTempFile(t);
  const help = await cli('keys', '--help');
  t.match(help.stdout, /keys update <id> \[--name <label>\] \[--expires <ISO-8601>\|none\] \[--models <id,id>\|all\] \[--rpm N\|none\] \[--tpm N\|none\]/);
});
