// `model-gateway usage`: requests and tokens per day, customer and model, read from the usage records.
import { withStores } from '../stores/open-stores.js';
import { isDay, type UsageQuery, type UsageRow, type UsageTotals } from '../metering/usage-store.js';
import { ArgError, parseCommandArgs, processIo, runCommand, type CliIo } from './args.js';
import { formatTable, json } from './output.js';

export interface UsageEnv {
  databaseUrl: string;
}

const USAGE = 'usage [--customer <name>] [--key <id>] [--model <id>] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--json]';

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
      },
      USAGE,
    );
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
      io.out(values.json ? json({ rows, totals }) : usageTable(rows, totals));
      return 0;
    });
  });
}

function counts(u: UsageTotals): number[] {
  return [u.requests, u.errors, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens];
}

function usageTable(rows: UsageRow[], totals: UsageTotals): string {
  if (rows.length === 0) return 'no usage recorded for these filters\n';
  return formatTable(
    ['DAY', 'CUSTOMER', 'MODEL', 'REQUESTS', 'ERRORS', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE'],
    [
      ...rows.map((r) => [r.day, r.customerName ?? '(no key)', r.model, ...counts(r)]),
      ['TOTAL', '', '', ...counts(totals)],
    ],
  );
}
