// The budget flags of the command line through the dispatcher, as the binary runs it, on a temp SQLite
// database: `keys create --budget`, `customers budget`, defaults (month, hard), `none`, and one-line errors.
import t from 'tap';
import { KeyCache } from '../../../src/keys/key-cache.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { tempCli } from '../../helpers/temp-cli.js';

t.setTimeout(300_000);

t.test('keys create --budget stores the key budget (default month, hard); customers budget sets, shows and removes', async (t) => {
  const { cli, url } = tempCli(t);
  const created = await cli('keys', 'create', '--customer', 'acme', '--budget', '12.5', '--json');
  t.equal(created.code, 0, created.stderr);
  const record = JSON.parse(created.stdout) as { key: string; budget: unknown; customerBudget: unknown };
  t.same(record.budget, { amountUsd: '12.50', period: 'month', mode: 'hard' });
  t.equal(record.customerBudget, null);
  const soft = await cli('keys', 'create', '--customer', 'acme', '--budget', '0.000000001', '--budget-period', 'day', '--budget-mode', 'soft', '--json');
  t.same(JSON.parse(soft.stdout).budget, { amountUsd: '0.000000001', period: 'day', mode: 'soft' });

  t.same(await cli('customers', 'budget', 'acme'), { code: 0, stdout: 'acme: budget none\n', stderr: '' });
  t.same(await cli('customers', 'budget', 'acme', '--amount', '250', '--period', 'total'), { code: 0, stdout: 'acme: budget 250.00 USD per lifetime (hard)\n', stderr: '' });
  t.same(await cli('customers', 'budget', 'acme', '--amount', '100', '--mode', 'soft'), { code: 0, stdout: 'acme: budget 100.00 USD per lifetime (soft)\n', stderr: '' }, 'only the flags given change: the period stays');
  t.same(await cli('customers', 'budget', 'acme', '--period', 'month'), { code: 0, stdout: 'acme: budget 100.00 USD per month (soft)\n', stderr: '' }, 'a period alone changes the period');
  const shown = await cli('customers', 'budget', 'acme', '--json');
  t.match(JSON.parse(shown.stdout), { name: 'acme', budget: { amountUsd: '100.00', period: 'month', mode: 'soft' } });
  const table = await cli('customers', 'list');
  t.match(table.stdout, /^acme\s+cus_\w{16}\s+-\s+-\s+100\.00 USD per month \(soft\)\s+\d{4}-/m);

  const db = openDatabase(url);
  t.teardown(() => db.close());
  const store = new SqliteKeyStore(db);
  const cache = new KeyCache(store);
  await cache.start();
  t.teardown(() => cache.close());
  const auth = cache.authenticate(record.key);
  if (!auth.ok) throw new Error(`refused: ${auth.reason}`);
  t.same(auth.principal.keyBudget, { amountNanoUsd: 12_500_000_000, period: 'month', mode: 'hard' });
  t.same(auth.principal.customerBudget, { amountNanoUsd: 100_000_000_000, period: 'month', mode: 'soft' }, 'the key is read with its customer\'s budget');

  t.same(await cli('customers', 'budget', 'acme', '--amount', 'none'), { code: 0, stdout: 'acme: budget none\n', stderr: '' });
  t.match(await store.getCustomerByName('acme'), { budget: null });
});

t.test('bad budget values: one line on stderr, exit 2, nothing stored', async (t) => {
  const { cli, url } = tempCli(t);
  await cli('keys', 'create', '--customer', 'acme');
  const key = 'mgw_AbCdEfGhIjKlMnOp_S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tX';
  const amountRule = 'must be an amount in USD above 0 and at most 9000000, with at most 9 decimals \\(e\\.g\\. 250 or 12\\.50\\)';
  const cases: Array<[argv: string[], line: RegExp]> = [
    [['keys', 'create', '--customer', 'acme', '--budget', '0'], new RegExp(`^model-gateway keys: --budget ${amountRule}, got "0"\\n$`)],
    [['keys', 'create', '--customer', 'acme', '--budget', '-5'], /^model-gateway keys: (--budget must be|option --budget)/],
    [['keys', 'create', '--customer', 'acme', '--budget', '1.0000000001'], new RegExp(`^model-gateway keys: --budget ${amountRule}, got "1.0000000001"\\n$`)],
    [['keys', 'create', '--customer', 'acme', '--budget', '9000000.01'], /^model-gateway keys: --budget must be an amount in USD above 0 and at most 9000000/],
    [['keys', 'create', '--customer', 'acme', '--budget', key], new RegExp(`^model-gateway keys: --budget ${amountRule}, got \\(not shown: 64 characters\\)\\n$`)],
    [['keys', 'create', '--customer', 'acme', '--budget', '5', '--budget-period', 'week'], /^model-gateway keys: --budget-period must be day, month, total, got "week"\n$/],
    [['keys', 'create', '--customer', 'acme', '--budget', '5', '--budget-mode', 'strict'], /^model-gateway keys: --budget-mode must be hard, soft, got "strict"\n$/],
    [['keys', 'create', '--customer', 'acme', '--budget-period', 'day'], /^model-gateway keys: --budget-period needs --budget\n$/],
    [['customers', 'budget', 'acme', '--amount', 'ten'], new RegExp(`^model-gateway customers: --amount ${amountRule}, got "ten"\\n$`)],
    [['customers', 'budget', 'acme', '--amount', 'none', '--period', 'day'], /^model-gateway customers: --amount none takes no --period or --mode\n$/],
    [['customers', 'budget'], /^model-gateway customers: expected one customer name \(usage: customers budget <name>/],
  ];
  for (const [argv, line] of cases) {
    const run = await cli(...argv);
    t.equal(run.code, 2, argv.join(' '));
    t.equal(run.stdout, '', argv.join(' '));
    t.match(run.stderr, line, argv.join(' '));
    t.equal(run.stderr.split('\n').length, 2, `one line: ${argv.join(' ')}`);
    t.notOk(run.stderr.includes('S3cr3t'), 'no secret echoed');
  }
  const noBudget = await cli('customers', 'budget', 'acme', '--mode', 'soft');
  t.same(noBudget, { code: 1, stdout: '', stderr: 'model-gateway customers: the customer has no budget: give an amount\n' }, 'a mode alone needs a budget there');
  const nobody = await cli('customers', 'budget', 'nobody', '--amount', '5');
  t.same(nobody, { code: 1, stdout: '', stderr: 'model-gateway customers: no customer named "nobody"\n' });
  const db = openDatabase(url);
  t.teardown(() => db.close());
  const store = new SqliteKeyStore(db);
  t.match(await store.listCustomers(), [{ name: 'acme', budget: null }]);
  t.equal((await store.listKeys()).length, 1, 'no key created by a refused command');
});

t.test('--help describes the budget flags', async (t) => {
  const { cli } = tempCli(t);
  const help = await cli('keys', '--help');
  t.match(help.stdout, /\[--budget USD\] \[--budget-period day\|month\|total\] \[--budget-mode hard\|soft\]/);
  t.match(help.stdout, /customers budget <name> \[--amount USD\|none\] \[--period day\|month\|total\] \[--mode hard\|soft\]/);
});
