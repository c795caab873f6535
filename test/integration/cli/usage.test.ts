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
  t.match(lines[0], /^DAY\s+CUSTOMER\s+MODEL\s+PROVIDER\s+REQUESTS\s+ERRORS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\s+COST \(USD\)$/);
  t.match(lines[1], /^2030-03-02\s+acme\s+claude-haiku-4-5-20251001\s+anthropic\s+2\s+1\s+201\s+10\s/);
  t.match(lines[2], /^TOTAL\s+2\s+1\s+201\s+10\s/);
  t.equal(lines.length, 3);

  const all = await cli('usage', '--json');
  const parsed = JSON.parse(all.stdout) as { rows: Array<{ customerName: string }>; totals: { requests: number } };
  t.equal(parsed.totals.requests, 4);
  t.same(parsed.rows.map((r) => r.customerName), ['acme', 'beta', 'acme']);

  t.match(await cli('usage', '--until', '2020-01-01'), { code: 0, stdout: 'no usage recorded for these filters\n' });
});

t.test('usage shows what each customer spent: exact cost in the table, --json and the csv export', async (t) => {
  const { cli, url } = tempCli(t);
  const db = openDatabase(url);
  t.teardown(() => db.close());
  const keys = new SqliteKeyStore(db);
  const acme = (await keys.createKey({ customerName: 'acme' })).record;
  const quoted = (await keys.createKey({ customerName: 'Smith, "Jones" & Co' })).record;
  const by = (k: typeof acme) => ({ customerId: k.customerId, keyId: k.id });
  const day1 = Date.parse('2030-03-01T10:00:00Z');
  const day2 = Date.parse('2030-03-02T10:00:00Z');
  await new SqliteUsageStore(db).insertBatch([
    // $0.10 and $0.20 in nano-dollars: as floating-point dollars they would add up to 0.30000000000000004.
    usageRecord({ ...by(acme), requestId: 'r1', at: day2, costNanoUsd: 100_000_000 }),
    usageRecord({ ...by(acme), requestId: 'r2', at: day2, costNanoUsd: 200_000_000 }),
    usageRecord({ ...by(acme), requestId: 'r3', at: day1, model: 'claude-opus-4-7', costNanoUsd: 1 }),
    usageRecord({ ...by(quoted), requestId: 'r4', at: day1, costNanoUsd: 6_250_000_000, provider: 'anthropic-eu', cacheWrite1hTokens: 2, webSearches: 3 }),
    usageRecord({ requestId: 'r5', at: day1, provider: null, status: 401, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costNanoUsd: 0 }),
  ]);

  const table = await cli('usage', '--customer', 'acme');
  t.equal(table.code, 0, table.stderr);
  const lines = table.stdout.trimEnd().split('\n');
  t.match(lines[1], /^2030-03-02\s+acme\s+claude-haiku-4-5-20251001\s+anthropic\s+2\s+0\s+20\s+40\s+6\s+8\s+0\.30$/);
  t.match(lines[2], /^2030-03-01\s+acme\s+claude-opus-4-7\s+anthropic\s+.*\s0\.000000001$/);
  t.match(lines[3], /^TOTAL\s.*\s0\.300000001$/);
  // Every customer: a provider of its own for one row, none for a request no provider served.
  const everyone = (await cli('usage', '--since', '2030-03-01', '--until', '2030-03-01')).stdout.trimEnd().split('\n');
  t.match(everyone[0], /^DAY\s+CUSTOMER\s+MODEL\s+PROVIDER\s+REQUESTS/);
  t.ok(everyone.some((l) => /^2030-03-01\s+Smith, "Jones" & Co\s+claude-haiku-4-5-20251001\s+anthropic-eu\s+1\s+0\s+10\s/.test(l)), 'the provider that served the row');
  t.ok(everyone.some((l) => /^2030-03-01\s+\(no key\)\s+claude-haiku-4-5-20251001\s+-\s+1\s+1\s+0\s/.test(l)), '"-" when no provider served');

  const asJson = JSON.parse((await cli('usage', '--json')).stdout) as { rows: Array<Record<string, unknown>>; totals: Record<string, unknown> };
  t.equal(asJson.totals.costUsd, '6.550000001');
  t.same(asJson.rows.map((r) => r.costUsd), ['0.30', '0.00', '6.25', '0.000000001']);
  t.same(asJson.rows.map((r) => r.provider), ['anthropic', null, 'anthropic-eu', 'anthropic'], 'each row names the provider that served it');
  t.notOk('costNanoUsd' in asJson.totals);

  const csv = await cli('usage', '--format', 'csv');
  t.equal(csv.code, 0, csv.stderr);
  t.equal(
    csv.stdout,
    [
      'day,customer_id,customer,model,provider,requests,errors,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,cache_write_1h_tokens,web_searches,cost_usd',
      '2030-03-01,,,claude-haiku-4-5-20251001,,1,1,0,0,0,0,0,0,0.00',
      `2030-03-01,${quoted.customerId},"Smith, ""Jones"" & Co",claude-haiku-4-5-20251001,anthropic-eu,1,0,10,20,3,4,2,3,6.25`,
      `2030-03-01,${acme.customerId},acme,claude-opus-4-7,anthropic,1,0,10,20,3,4,0,0,0.000000001`,
      `2030-03-02,${acme.customerId},acme,claude-haiku-4-5-20251001,anthropic,2,0,20,40,6,8,0,0,0.30`,
      '',
    ].join('\r\n'),
  );
  const oneCustomer = await cli('usage', '--format', 'csv', '--customer', 'acme', '--since', '2030-03-02');
  t.equal(oneCustomer.stdout.split('\r\n').length, 3, 'the header, one row, the final line end');
  t.equal((await cli('usage', '--format', 'csv', '--until', '2020-01-01')).stdout.split('\r\n')[1], '', 'no rows: the header alone');
});

t.test('usage refuses bad arguments with one line', async (t) => {
  const { cli } = tempCli(t);
  const cases: Array<[string[], number, RegExp]> = [
    [['--since', '2030-3-1'], 2, /--since must be a date YYYY-MM-DD/],
    [['--until', '2030-02-30'], 2, /--until must be a date/],
    [['--customer', 'nobody'], 1, /no customer named "nobody"/],
    [['--verbose'], 2, /unknown option --verbose/],
    [['--format', 'xml'], 2, /--format must be one of table, json, csv, got "xml"/],
    [['--json', '--format', 'csv'], 2, /--json and --format csv do not go together/],
  ];
  for (const [argv, code, reason] of cases) {
    const run = await cli('usage', ...argv);
    t.equal(run.code, code, argv.join(' '));
    t.match(run.stderr, reason);
    t.match(run.stderr, /^model-gateway usage: [^\n]+\n$/);
  }
});
