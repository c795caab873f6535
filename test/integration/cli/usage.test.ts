import t from 'tap';
import { openDatabase } from '../../../src/stores/sqlite/open.js';
import { SqliteKeyStore } from '../../../src/stores/sqlite/sqlite-key-store.js';
import { SqliteUsageStore } from '../../../src/stores/sqlite/sqlite-usage-store.js';
import { usageRecord } from '../../unit/metering/fixtures/usage-record.js';
import { tempCli } from './fixtures/cli.js';

t.test('usage groups by day, customer and model and filters by customer and day', async (t) => {
  const { cli, url } = tempCli(t);
  const db = openDatabase(url);
  t.teardown(() => db.close());
  const acme = (await new SqliteKeyStore(db).createKey({ customerName: 'acme' })).record;
  const beta = (await new SqliteKeyStore(db).createKey({ customerName: 'beta' })).record;
  const by = (k: typeof acme) => ({ customerId: k.customerId, keyId: k.id });
  await new SqliteUsageStore(db).insertBatch([
    usageRecord({ ...by(acme), at: Date.parse('2030-03-01T10:00:00Z'), inputTokens: 100, outputTokens: 7 }),
    usageRecord({ ...by(acme), at: Date.parse('2030-03-02T10:00:00Z'), inputTokens: 200, outputTokens: 9 }),
    usageRecord({ ...by(acme), at: Date.parse('2030-03-02T11:00:00Z'), inputTokens: 1, outputTokens: 1, status: 500 }),
    usageRecord({ ...by(beta), at: Date.parse('2030-03-02T10:00:00Z'), inputTokens: 5000 }),
  ]);

  const table = await cli('usage', '--customer', 'acme', '--since', '2030-03-02');
  t.equal(table.code, 0, table.stderr);
  const lines = table.stdout.trimEnd().split('\n');
  t.match(lines[0], /^DAY\s+CUSTOMER\s+MODEL\s+REQUESTS\s+ERRORS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE$/);
  t.match(lines[1], /^2030-03-02\s+acme\s+claude-haiku-4-5-20251001\s+2\s+1\s+201\s+10\s/);
  t.match(lines[2], /^TOTAL\s+2\s+1\s+201\s+10\s/);
  t.equal(lines.length, 3);

  const all = await cli('usage', '--json');
  const parsed = JSON.parse(all.stdout) as { rows: Array<{ customerName: string }>; totals: { requests: number } };
  t.equal(parsed.totals.requests, 4);
  t.same(parsed.rows.map((r) => r.customerName), ['acme', 'beta', 'acme']);

  t.match(await cli('usage', '--until', '2020-01-01'), { code: 0, stdout: 'no usage recorded for these filters\n' });
});

t.test('usage refuses bad arguments with one line', async (t) => {
  const { cli } = tempCli(t);
  const cases: Array<[string[], number, RegExp]> = [
    [['--since', '2030-3-1'], 2, /--since must be a date YYYY-MM-DD/],
    [['--until', '2030-02-30'], 2, /--until must be a date/],
    [['--customer', 'nobody'], 1, /no customer named "nobody"/],
    [['--verbose'], 2, /unknown option --verbose/],
  ];
  for (const [argv, code, reason] of cases) {
    const run = await cli('usage', ...argv);
    t.equal(run.code, code, argv.join(' '));
    t.match(run.stderr, reason);
    t.match(run.stderr, /^model-gateway usage: [^\n]+\n$/);
  }
});
