// `model-gateway customers list|limits`: customers and their own rate limits, from the command line. A limit
// set here is stored with the customer and reaches every running instance within its key refresh interval
// (the customer's keys are reloaded); GATEWAY_CUSTOMER_LIMITS stays the default for customers without any.
import type { Customer, CustomerLimits } from '../keys/key-store.js';
import { withStores } from '../stores/open-stores.js';
import { ArgError, parseCommandArgs, positiveIntegerArg, processIo, runCommand, shownArgument, type CliIo } from './args.js';
import { formatTable, json, shortTime } from './output.js';

export interface CustomersEnv {
  databaseUrl: string;
}

/** The word that removes a customer's own limit on a dimension (0 is refused: it would read as "blocked"). */
export const NO_LIMIT = 'none';

const USAGE = {
  list: 'customers list [--json]',
  limits: `customers limits <name> [--rpm N|${NO_LIMIT}] [--tpm N|${NO_LIMIT}] [--json]`,
};

/** Each parses its arguments before opening the database, so a mistyped command costs no connection. */
type Subcommand = (argv: string[], env: CustomersEnv, io: CliIo) => Promise<number>;

const SUBCOMMANDS: Record<string, Subcommand> = { list, limits };

export async function runCustomers(argv: string[], env: CustomersEnv, io: CliIo = processIo): Promise<number> {
  return runCommand(io, 'customers', async () => {
    const [name, ...rest] = argv;
    const sub = name !== undefined && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
    if (sub === undefined) throw new ArgError(`expected list or limits (usage: ${Object.values(USAGE).join(' | ')})`);
    return sub(rest, env, io);
  });
}

async function list(argv: string[], env: CustomersEnv, io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, { json: { type: 'boolean' } }, USAGE.list);
  const customers = await withStores(env.databaseUrl, (stores) => stores.keys.listCustomers());
  io.out(values.json ? json(customers) : customerTable(customers));
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
  const result = await withStores(env.databaseUrl, async ({ keys }) => {
    const customer = await keys.getCustomerByName(positionals[0]);
    if (customer === null) throw new Error(`no customer named ${shownArgument(positionals[0])}`);
    if (!changed) return customer;
    return keys.setCustomerLimits(customer.id, { rpm: rpm === undefined ? customer.rpm : rpm, tpm: tpm === undefined ? customer.tpm : tpm });
  });
  io.out(values.json ? json(result) : `${result.name}: ${limitsText(result)}${changed ? '' : ownLimitsNote(result)}\n`);
  return 0;
}

/** `--rpm N` sets, `--rpm none` removes, absent (undefined) keeps. */
function limitArg(flag: keyof CustomerLimits, value: string | undefined): number | null | undefined {
  if (value === NO_LIMIT) return null;
  try {
    return positiveIntegerArg(flag, value);
  } catch {
    throw new ArgError(`--${flag} must be a positive integer or ${NO_LIMIT}, got ${shownArgument(value ?? '')}`);
  }
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
    ['NAME', 'ID', 'RPM', 'TPM', 'CREATED'],
    customers.map((c) => [c.name, c.id, c.rpm ?? '-', c.tpm ?? '-', shortTime(c.createdAt)]),
  );
}
