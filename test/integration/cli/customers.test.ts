// `model-gateway customers list|limits` through the command dispatcher, as the binary runs it, on a temp
// SQLite database: limits are stored with the customer, `none` removes one, a flag not given is kept, and
// every failure is one line with a non-zero exit.
import t from 'tap';
import { KeyCache } from '../../../src/keys/key-cache.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { tempCli } from '../../helpers/temp-cli.js';

// Each command that opens the database starts and stops the usage write thread: seconds on a busy machine.
t.setTimeout(300_000);

t.test('customers limits sets, keeps what is not given, removes with none; keys carry the new limits', async (t) => {
  const { cli, url } = tempCli(t);
  const key = (await cli('keys', 'create', '--customer', 'acme')).stdout.trim();

  t.same(await cli('customers', 'limits', 'acme'), {
    code: 0,
    stdout: 'acme: rpm none, tpm none (none of its own: GATEWAY_CUSTOMER_LIMITS applies)\n',
    stderr: '',
  });
  t.same(await cli('customers', 'limits', 'acme', '--rpm', '600', '--tpm', '400000'), { code: 0, stdout: 'acme: rpm 600, tpm 400000\n', stderr: '' });
  t.same(await cli('customers', 'limits', 'acme', '--tpm', '1000'), { code: 0, stdout: 'acme: rpm 600, tpm 1000\n', stderr: '' }, 'rpm kept');

  const db = openDatabase(url);
  t.teardown(() => db.close());
  const store = new SqliteKeyStore(db);
  t.match(await store.getCustomerByName('acme'), { rpm: 600, tpm: 1000 });
  const cache = new KeyCache(store);
  await cache.start();
  t.teardown(() => cache.close());
  const auth = cache.authenticate(key);
  if (!auth.ok) throw new Error(`refused: ${auth.reason}`);
  t.same(auth.principal.customerLimits, { rpm: 600, tpm: 1000 }, 'the key is read with its customer\'s limits');

  const cleared = await cli('customers', 'limits', 'acme', '--rpm', 'none', '--json');
  t.equal(cleared.code, 0, cleared.stderr);
  t.match(JSON.parse(cleared.stdout), { name: 'acme', rpm: null, tpm: 1000 });
  t.same(await cli('customers', 'limits', 'acme', '--tpm', 'none'), { code: 0, stdout: 'acme: rpm none, tpm none\n', stderr: '' });
  t.match(await store.getCustomerByName('acme'), { rpm: null, tpm: null });
});

t.test('customers list: name, id, rpm, tpm, budget, created; --json gives the records', async (t) => {
  const { cli } = tempCli(t);
  t.same(await cli('customers', 'list'), { code: 0, stdout: 'no customers\n', stderr: '' });
  await cli('keys', 'create', '--customer', 'beta');
  await cli('keys', 'create', '--customer', 'acme');
  await cli('customers', 'limits', 'acme', '--rpm', '60');

  const table = await cli('customers', 'list');
  t.equal(table.code, 0, table.stderr);
  const lines = table.stdout.trimEnd().split('\n');
  t.match(lines[0], /^NAME\s+ID\s+RPM\s+TPM\s+BUDGET\s+CREATED$/);
  t.match(lines[1], /^acme\s+cus_\w{16}\s+60\s+-\s+-\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
  t.match(lines[2], /^beta\s+cus_\w{16}\s+-\s+-\s+-\s+\d{4}-/);
  t.equal(lines.length, 3);

  const listed = await cli('customers', 'list', '--json');
  const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
  t.match(rows, [{ name: 'acme', rpm: 60, tpm: null }, { name: 'beta', rpm: null, tpm: null }]);
  t.match(rows[0], { id: /^cus_/, createdAt: /Z$/ });
});

t.test('bad invocations: one line on stderr, nothing on stdout, nothing stored', async (t) => {
  const { cli, url } = tempCli(t);
  await cli('keys', 'create', '--customer', 'acme');
  const key = 'mgw_AbCdEfGhIjKlMnOp_S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tX';
  const cases: Array<[argv: string[], code: number, line: RegExp]> = [
    [['customers'], 2, /^model-gateway customers: expected list, limits or budget \(usage: customers list/],
    [['customers', 'limits'], 2, /^model-gateway customers: expected one customer name \(usage: customers limits <name>/],
    [['customers', 'limits', 'acme', 'beta'], 2, /^model-gateway customers: expected one customer name /],
    [['customers', 'limits', 'acme', '--rpm', '0'], 2, /^model-gateway customers: --rpm must be a positive integer or none, got "0"\n$/],
    [['customers', 'limits', 'acme', '--tpm', '1.5'], 2, /^model-gateway customers: --tpm must be a positive integer or none, got "1.5"\n$/],
    [['customers', 'limits', 'acme', '--rpm', key], 2, /^model-gateway customers: --rpm must be a positive integer or none, got \(not shown: 64 characters\)\n$/],
    [['customers', 'limits', 'acme', '--rpm'], 2, /^model-gateway customers: option --rpm needs a value /],
    [['customers', 'limits', 'nobody', '--rpm', '5'], 1, /^model-gateway customers: no customer named "nobody"\n$/],
    [['customers', 'limits', key], 1, /^model-gateway customers: no customer named \(not shown: 64 characters\)\n$/],
    [['customers', 'list', 'extra'], 2, /^model-gateway customers: unexpected argument /],
  ];
  for (const [argv, code, line] of cases) {
    const run = await cli(...argv);
    t.equal(run.code, code, argv.join(' '));
    t.equal(run.stdout, '', argv.join(' '));
    t.match(run.stderr, line, argv.join(' '));
    t.equal(run.stderr.split('\n').length, 2, `one line: ${argv.join(' ')}`);
    t.notOk(run.stderr.includes('S3cr3t'), 'no secret echoed');
  }
  const db = openDatabase(url);
  t.teardown(() => db.close());
  t.match(await new SqliteKeyStore(db).listCustomers(), [{ name: 'acme', rpm: null, tpm: null }]);
});

t.test('--help lists the customers commands', async (t) => {
  const { cli } = tempCli(t);
  const help = await cli('customers', '--help');
  t.equal(help.code, 0);
  t.match(help.stdout, /customers list \[--json\]/);
  t.match(help.stdout, /customers limits <name> \[--rpm N\|none\] \[--tpm N\|none\]/);
});
