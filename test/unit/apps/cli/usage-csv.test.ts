// The invoicing export: RFC 4180 quoting, oldest day first, and names a spreadsheet would run as formulas kept as text.
import t from 'tap';
import { usageCsv } from '../../../../src/apps/cli/usage-csv.js';
import type { UsageRow } from '../../../../src/metering/usage-store.js';

function row(customerName: string, day = '2026-11-01'): UsageRow {
  return {
    day,
    customerId: 'cus_1',
    customerName,
    model: 'claude-sonnet-4-6',
    provider: 'anthropic-a',
    requests: 1,
    errors: 0,
    inputTokens: 10,
    outputTokens: 20,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    webSearches: 0,
    costNanoUsd: 330_000n,
  };
}

const cases: Array<[string, string]> = [
  ['acme', 'acme'],
  ['acme, inc', '"acme, inc"'],
  ['say "hi"', '"say ""hi"""'],
  ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
  ['+1', `"'+1"`],
  ['-1', `"'-1"`],
  ['@SUM(A1)', `"'@SUM(A1)"`],
  ['\tname', `"'\tname"`],
  ['a=b', 'a=b'],
  ['a-b co', 'a-b co'],
  // Finding N8: a formula after a separator or leading spaces.
  ['acme,=1+1', `"'acme,=1+1"`],
  ['acme;=cmd|calc', `"'acme;=cmd|calc"`],
  ['acme| @SUM(A1)', `"'acme| @SUM(A1)"`],
  [' =1', `"' =1"`],
  ['acme\n+1', `"'acme\n+1"`],
];

for (const [name, cell] of cases) {
  t.test(`customer ${JSON.stringify(name)}`, async (t) => {
    const lines = usageCsv([row(name)]).split('\r\n');
    t.equal(lines.length, 3, 'header, one row, the final line end');
    t.equal(lines[1], `2026-11-01,cus_1,${cell},claude-sonnet-4-6,anthropic-a,1,0,10,20,0,0,0,0,0.00033`);
  });
}

t.test('oldest day first', async (t) => {
  const lines = usageCsv([row('b', '2026-11-02'), row('a', '2026-11-01')]).split('\r\n');
  t.match(lines[1], /^2026-11-01,/);
  t.match(lines[2], /^2026-11-02,/);
});

t.test('1-hour cache writes and web searches in columns of their own, so each row can be checked', async (t) => {
  const lines = usageCsv([{ ...row('acme'), cacheWriteTokens: 3000, cacheWrite1hTokens: 1000, webSearches: 7, costNanoUsd: 89_250_000n }]).split('\r\n');
  t.equal(lines[0], 'day,customer_id,customer,model,provider,requests,errors,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,cache_write_1h_tokens,web_searches,cost_usd');
  t.equal(lines[1], '2026-11-01,cus_1,acme,claude-sonnet-4-6,anthropic-a,1,0,10,20,0,3000,1000,7,0.08925');
});
