// `model-gateway audit`: the admin trail, newest first: when, who, from where, what, and what changed.
// Read from whichever store DATABASE_URL names; the text table shows any control character escaped.
import { auditSinceMs, SINCE_FORMAT } from '../../admin/audit/audit-since.js';
import { auditEntryView, type AuditEntryView } from '../../admin/audit/audit-view.js';
import type { AuditQuery } from '../../stores/audit-store.js';
import { withStores } from '../../stores/open-stores.js';
import { ArgError, parseCommandArgs, processIo, runCommand, shownArgument, type CliIo } from '../args.js';
import { formatTable, json, shortTime } from './output.js';

export interface AuditEnv {
  databaseUrl: string;
}

const USAGE = 'audit [--since DATE] [--customer <name>] [--json]';

export async function runAudit(argv: string[], env: AuditEnv, io: CliIo = processIo): Promise<number> {
  return runCommand(io, 'audit', async () => {
    const { values } = parseCommandArgs(argv, { since: { type: 'string' }, customer: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
    const query: AuditQuery = {};
    if (values.since !== undefined) {
      const ms = auditSinceMs(values.since);
      if (ms === null) throw new ArgError(`--since must be ${SINCE_FORMAT}, got ${shownArgument(values.since)}`);
      query.sinceMs = ms;
    }
    return withStores(env.databaseUrl, async ({ keys, audit }) => {
      const customers = await keys.listCustomers();
      if (values.customer !== undefined) {
        const customer = customers.find((c) => c.name === values.customer);
        if (customer === undefined) throw new Error(`no customer named ${shownArgument(values.customer)}`);
        query.customerId = customer.id;
      }
      const names = new Map(customers.map((c) => [c.id, c.name]));
      const rows = (await audit.list(query)).map((e) => auditEntryView(e, names));
      io.out(values.json ? json(rows) : auditTable(rows));
      return 0;
    });
  });
}

function auditTable(rows: AuditEntryView[]): string {
  if (rows.length === 0) return 'no audit entries for these filters\n';
  return formatTable(
    ['TIME', 'ACTOR', 'ADDRESS', 'ACTION', 'CUSTOMER', 'TARGET', 'CHANGE'],
    rows.map((r) => [shortTime(r.at), r.actor, r.address ?? '-', r.action, r.customerName ?? r.customerId ?? '-', r.targetId ?? '-', r.change === '' ? '-' : r.change]),
  );
}
