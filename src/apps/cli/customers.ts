// `model-gateway customers list|limits|budget`: customers, their own rate limits and spend budget, from the
// command line. A limit or budget set here is stored with the customer and reaches every running instance
// within its key refresh interval (the customer's keys are reloaded); GATEWAY_CUSTOMER_LIMITS stays the
// default for customers without limits of their own.
import type { Customer, CustomerLimits } from '../../keys/key-store.js';
import { withStores } from '../../stores/open-stores.js';
import { customerBudgetChanged, customerLimitsChanged } from '../../admin/audit/audit-changes.js';
import { cliSource, recordAudit } from '../../admin/audit/record-audit.js';
import { ArgError, parseCommandArgs, processIo, runCommand, shownArgument, type CliIo } from '../args.js';
import { budgetView } from '../../policy/budgets/budget-view.js';
import { budgetText } from './budget-args.js';
import { budgetChangeFromArgs, limitArg, NONE as NO_LIMIT } from './edit-args.js';
import { formatTable, json, shortTime } from './output.js';

export interface CustomersEnv {
  databaseUrl: string;
}

const USAGE = {
  list: 'customers list [--json]',
  limits: `customers limits <name> [--rpm N|${NO_LIMIT}] [--tpm N|${NO_LIMIT}] [--json]`,
  budget: `customers budget <name> [--amount USD|${NO_LIMIT}] [--period day|month|total] [--mode hard|soft] [--json]`,
};

/** Each parses its arguments before opening the database, so a mistyped command costs no connection. */
type Subcommand = (argv: string[], env: CustomersEnv, io: CliIo) => Promise<number>;

const SUBCOMMANDS: Record<string, Subcommand> = { list, limits, budget };

export async function runCustomers(argv: string[], env: CustomersEnv, io: CliIo = processIo): Promise<number> {
  return runCommand(io, 'customers', async () => {
    const [name, ...rest] = argv;
    const sub = name !== undefined && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
    if (sub === undefined) throw new ArgError(`expected list, limits or budget (usage: ${Object.values(USAGE).join(' | ')})`);
    return sub(rest, env, io);
  });
}

async function list(argv: string[], env: CustomersEnv, io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, { json: { type: 'boolean' } }, USAGE.list);
  const customers = await withStores(env.databaseUrl, (stores) => stores.keys.listCustomers());
  io.out(values.json ? json(customers.map(customerJson)) : customerTable(customers));
  return 0;
}

/** Without --rpm or --tpm it shows the customer's limits; a flag not given keeps that dimension as it is. */
async function limits(argv: string[], env: CustomersEnv, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { rpm: { type: 'string' }, tpm: { type: 'string' }, json: { type: 'boolean' } },
    USAGE.limits,
    true,
  );
  if (positionals.length !== 1) throw new ArgError(`expected one customer name (usage: ${USAGE.limits})`);
  const rpm = limitArg('rpm', values.rpm);
  const tpm = limitArg('tpm', values.tpm);
  const changed = rpm !== undefined || tpm !== undefined;
  const result = await withStores(env.databaseUrl, async ({ keys, audit }) => {
    const customer = await keys.getCustomerByName(positionals[0]);
    if (customer === null) throw new Error(`no customer named ${shownArgument(positionals[0])}`);
    if (!changed) return customer;
    // Only the limits given: the store changes them in one statement, so a concurrent change of the other stays.
    const updated = await keys.setCustomerLimits(customer.id, { rpm, tpm });
    await recordAudit(audit, cliSource(), customerLimitsChanged(customer, updated));
    return updated;
  });
  io.out(values.json ? json(customerJson(result)) : `${result.name}: ${limitsText(result)}${changed ? '' : ownLimitsNote(result)}\n`);
  return 0;
}

/**
 * Without flags it shows the customer's budget. `--amount USD` sets the amount (a new budget: period
 * default month, mode default hard), `--amount none` removes it; --period and --mode alone change those of
 * the budget there is. Only the flags given change, in one statement.
 */
async function budget(argv: string[], env: CustomersEnv, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { amount: { type: 'string' }, period: { type: 'string' }, mode: { type: 'string' }, json: { type: 'boolean' } },
    USAGE.budget,
    true,
  );
  if (positionals.length !== 1) throw new ArgError(`expected one customer name (usage: ${USAGE.budget})`);
  const wanted = budgetChangeFromArgs({ amount: 'amount', period: 'period', mode: 'mode' }, { amount: values.amount, period: values.period, mode: values.mode });
  const result = await withStores(env.databaseUrl, async ({ keys, audit }) => {
    const customer = await keys.getCustomerByName(positionals[0]);
    if (customer === null) throw new Error(`no customer named ${shownArgument(positionals[0])}`);
    if (wanted === undefined) return customer;
    const updated = await keys.setCustomerBudget(customer.id, wanted);
    await recordAudit(audit, cliSource(), customerBudgetChanged(customer, updated));
    return updated;
  });
  io.out(values.json ? json(customerJson(result)) : `${result.name}: budget ${budgetText(result.budget)}\n`);
  return 0;
}

/** A customer as --json prints it: the budget's amount in USD (an exact decimal string). */
function customerJson(c: Customer) {
  return { ...c, budget: budgetView(c.budget) };
}

function limitText(n: number | null): string {
  return n === null ? NO_LIMIT : String(n);
}

function limitsText(c: CustomerLimits): string {
  return `rpm ${limitText(c.rpm)}, tpm ${limitText(c.tpm)}`;
}

function ownLimitsNote(c: Customer): string {
  return c.rpm === null && c.tpm === null ? ' (none of its own: GATEWAY_CUSTOMER_LIMITS applies)' : '';
}

function customerTable(customers: Customer[]): string {
  if (customers.length === 0) return 'no customers\n';
  return formatTable(
    ['NAME', 'ID', 'RPM', 'TPM', 'BUDGET', 'CREATED'],
    customers.map((c) => [c.name, c.id, c.rpm ?? '-', c.tpm ?? '-', c.budget === null ? '-' : budgetText(c.budget), shortTime(c.createdAt)]),
  );
}
