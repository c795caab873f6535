// `model-gateway usage`: requests, tokens and cost per day, customer, model and provider, read from the usage records.
import { withStores } from '../../stores/open-stores.js';
import { isDay, type UsageQuery, type UsageRow, type UsageTotals } from '../../metering/usage-store.js';
import { ArgError, parseCommandArgs, processIo, runCommand, type CliIo } from '../args.js';
import { formatTable, json } from './output.js';
import { usageCsv } from './usage-csv.js';
import { formatUsd } from '../../metering/cost.js';
import { withCostUsd } from '../../metering/usage-cost-json.js';

export interface UsageEnv {
  databaseUrl: string;
}

const USAGE = 'usage [--customer <name>] [--key <id>] [--model <id>] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--json | --format table|json|csv]';

const FORMATS = ['table', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

export async function runUsage(argv: string[], env: UsageEnv, io: CliIo = processIo): Promise<number> {
  return runCommand(io, 'usage', async () => {
    const { values } = parseCommandArgs(
      argv,
      {
        customer: { type: 'string' },
        key: { type: 'string' },
        model: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        json: { type: 'boolean' },
        format: { type: 'string' },
      },
      USAGE,
    );
    const format = formatOf(values.format, values.json === true);
    for (const flag of ['since', 'until'] as const) {
      const day = values[flag];
      if (day !== undefined && !isDay(day)) throw new ArgError(`--${flag} must be a date YYYY-MM-DD, got "${day}"`);
    }
    return withStores(env.databaseUrl, async (stores) => {
      const query: UsageQuery = { keyId: values.key, model: values.model, since: values.since, until: values.until };
      if (values.customer !== undefined) {
        const customer = await stores.keys.getCustomerByName(values.customer);
        if (customer === null) throw new Error(`no customer named "${values.customer}"`);
        query.customerId = customer.id;
      }
      const store = stores.usage;
      const [rows, totals] = await Promise.all([store.query(query), store.totals(query)]);
      if (format === 'csv') io.out(usageCsv(rows));
      else if (format === 'json') io.out(json({ rows: rows.map(withCostUsd), totals: withCostUsd(totals) }));
      else io.out(usageTable(rows, totals));
      return 0;
    });
  });
}

function formatOf(flag: string | undefined, jsonFlag: boolean): Format {
  if (flag === undefined) return jsonFlag ? 'json' : 'table';
  if (!(FORMATS as readonly string[]).includes(flag)) throw new ArgError(`--format must be one of ${FORMATS.join(', ')}, got "${flag}"`);
  if (jsonFlag && flag !== 'json') throw new ArgError(`--json and --format ${flag} do not go together`);
  return flag as Format;
}

const NO_PROVIDER = '-';

function counts(u: UsageTotals): number[] {
  return [u.requests, u.errors, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens];
}

function usageTable(rows: UsageRow[], totals: UsageTotals): string {
  if (rows.length === 0) return 'no usage recorded for these filters\n';
  const costs = [...rows.map((r) => formatUsd(r.costNanoUsd)), formatUsd(totals.costNanoUsd)];
  // Exact amounts have varying decimals; padded to one width, they line up on the right like the counts.
  const width = Math.max(...costs.map((c) => c.length));
  const cost = (i: number) => costs[i].padStart(width);
  return formatTable(
    ['DAY', 'CUSTOMER', 'MODEL', 'PROVIDER', 'REQUESTS', 'ERRORS', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'COST (USD)'],
    [
      // The rows are grouped by provider too: without the column two providers' rows of a model would look alike.
      // '-': no provider served the request (refused before any upstream call), or a row from before providers were recorded.
      ...rows.map((r, i) => [r.day, r.customerName ?? '(no key)', r.model, r.provider ?? NO_PROVIDER, ...counts(r), cost(i)]),
      ['TOTAL', '', '', '', ...counts(totals), cost(rows.length)],
    ],
  );
}
