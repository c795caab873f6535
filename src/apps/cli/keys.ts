// `model-gateway keys create|list|update|revoke`: key management from the command line, safe beside a running server
// (SQLite in WAL mode, or the fleet's PostgreSQL; every running instance sees a revocation within a second or two).
import { KEY_TAG } from '../../keys/key-format.js';
import type { KeyChanges, KeyRecord } from '../../keys/key-store.js';
import { keyStatus } from '../../keys/key-status.js';
import { withStores } from '../../stores/open-stores.js';
import type { Stores } from '../../stores/stores.js';
import { customerCreated, keyCreated, keyRevoked, keyUpdated } from '../../admin/audit/audit-changes.js';
import { cliSource, recordAudit } from '../../admin/audit/record-audit.js';
import { ArgError, parseCommandArgs, positiveIntegerArg, processIo, runCommand, shownArgument, type CliIo } from '../args.js';
import { budgetView } from '../../policy/budgets/budget-view.js';
import { budgetFromArgs } from './budget-args.js';
import { budgetChangeFromArgs, limitArg, noneOr, NONE } from './edit-args.js';
import { formatTable, json, shortTime } from './output.js';

export interface KeysEnv {
  databaseUrl: string;
  /** GATEWAY_MAX_KEYS_PER_CUSTOMER: `keys create` refuses a customer's key beyond it; 0: no cap. */
  maxKeysPerCustomer: number;
}

const USAGE = {
  create:
    'keys create --customer <name> [--name <label>] [--expires <ISO-8601>] [--models <id,id>] [--rpm N] [--tpm N] [--budget USD] [--budget-period day|month|total] [--budget-mode hard|soft] [--json]',
  list: 'keys list [--customer <name>] [--json]',
  update:
    'keys update <id> [--name L] [--expires DATE|none] [--models a,b|all] [--rpm N|none] [--tpm N|none] [--budget USD|none] [--budget-period day|month|total] [--budget-mode hard|soft] [--json]',
  revoke: 'keys revoke <id>',
};

/** `--models all` lifts the key's model list: every model of the catalogue. */
const ALL_MODELS = 'all';

/** The key store, and the admin trail every change made here is written to. */
type KeyStores = Pick<Stores, 'keys' | 'audit'>;

type Subcommand = (argv: string[], stores: KeyStores, io: CliIo, env: KeysEnv) => Promise<number>;

const SUBCOMMANDS: Record<string, Subcommand> = { create, list, update, revoke };

export async function runKeys(argv: string[], env: KeysEnv, io: CliIo = processIo): Promise<number> {
  return runCommand(io, 'keys', async () => {
    const [name, ...rest] = argv;
    const sub = name !== undefined && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
    if (sub === undefined) throw new ArgError(`expected create, list, update or revoke (usage: ${Object.values(USAGE).join(' | ')})`);
    return withStores(env.databaseUrl, (stores) => sub(rest, stores, io, env));
  });
}

/** The flags of a key's settings, the same for `keys create` and `keys update`. */
const KEY_SETTING_FLAGS = {
  name: { type: 'string' },
  expires: { type: 'string' },
  models: { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  budget: { type: 'string' },
  'budget-period': { type: 'string' },
  'budget-mode': { type: 'string' },
  json: { type: 'boolean' },
} as const;

async function create(argv: string[], { keys: store, audit }: KeyStores, io: CliIo, env: KeysEnv): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      customer: { type: 'string' },
      ...KEY_SETTING_FLAGS,
    },
    USAGE.create,
  );
  if (values.customer === undefined) throw new ArgError(`--customer is required (usage: ${USAGE.create})`);
  const budget = budgetFromArgs(
    { amount: 'budget', period: 'budget-period', mode: 'budget-mode' },
    { amount: values.budget, period: values['budget-period'], mode: values['budget-mode'] },
  );
  const customerIsNew = (await store.getCustomerByName(values.customer)) === null;
  const { record, key } = await store.createKey({
    customerName: values.customer,
    name: values.name ?? null,
    expiresAt: values.expires ?? null,
    allowedModels: values.models === undefined ? null : values.models.split(','),
    rpm: positiveIntegerArg('rpm', values.rpm) ?? null,
    tpm: positiveIntegerArg('tpm', values.tpm) ?? null,
    budget: budget ?? null,
    maxActiveKeys: env.maxKeysPerCustomer,
  });
  const source = cliSource();
  const customer = customerIsNew ? await store.getCustomer(record.customerId) : null;
  if (customer !== null) await recordAudit(audit, source, customerCreated(customer));
  await recordAudit(audit, source, keyCreated(record));
  io.out(values.json ? json({ ...keyJson(record), key, customer: record.customerName }) : `${key}\n`);
  return 0;
}

async function list(argv: string[], { keys: store }: KeyStores, io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, { customer: { type: 'string' }, json: { type: 'boolean' } }, USAGE.list);
  let customerId: string | undefined;
  if (values.customer !== undefined) {
    const customer = await store.getCustomerByName(values.customer);
    if (customer === null) throw new Error(`no customer named "${values.customer}"`);
    customerId = customer.id;
  }
  const keys = await store.listKeys({ customerId });
  io.out(values.json ? json(keys.map(keyJson)) : keyTable(keys, Date.now()));
  return 0;
}

/** Only the flags given change (store.updateKey: one statement); `none` removes a setting. */
async function update(argv: string[], { keys: store, audit }: KeyStores, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    KEY_SETTING_FLAGS,
    USAGE.update,
    true,
  );
  const id = positionals.length === 1 ? keyIdOf(positionals[0]) : '';
  if (id === '') throw new ArgError(`expected one key id (usage: ${USAGE.update})`);
  const changes: KeyChanges = {
    name: values.name,
    expiresAt: noneOr(values.expires, (v) => v),
    allowedModels: values.models === undefined ? undefined : values.models === ALL_MODELS ? null : values.models.split(','),
    rpm: limitArg('rpm', values.rpm),
    tpm: limitArg('tpm', values.tpm),
    budget: budgetChangeFromArgs(
      { amount: 'budget', period: 'budget-period', mode: 'budget-mode' },
      { amount: values.budget, period: values['budget-period'], mode: values['budget-mode'] },
    ),
  };
  if (Object.values(changes).every((v) => v === undefined)) {
    throw new ArgError(`nothing to change: give at least one of --name, --expires, --models, --rpm, --tpm, --budget, --budget-period, --budget-mode (${NONE} removes one)`);
  }
  const before = await store.getKey(id);
  if (before === null) throw new Error(`no key with id ${shownArgument(id)}`);
  const after = await store.updateKey(before.id, changes);
  if (after === null) throw new Error(`no key with id ${shownArgument(id)}`);
  await recordAudit(audit, cliSource(), keyUpdated(before, after));
  io.out(values.json ? json(keyJson(after)) : `updated ${after.id}\n`);
  return 0;
}

async function revoke(argv: string[], { keys: store, audit }: KeyStores, io: CliIo): Promise<number> {
  const { positionals } = parseCommandArgs(argv, {}, USAGE.revoke, true);
  if (positionals.length !== 1) throw new ArgError(`expected one key id (usage: ${USAGE.revoke})`);
  const id = keyIdOf(positionals[0]);
  if (id === '') throw new ArgError(`expected one key id (usage: ${USAGE.revoke})`);
  const existing = await store.getKey(id);
  if (existing === null) throw new Error(`no key with id ${shownArgument(id)}`);
  if (await store.revokeKey(existing.id)) {
    const after = (await store.getKey(existing.id)) ?? existing;
    await recordAudit(audit, cliSource(), keyRevoked(existing, after));
    io.out(`revoked ${existing.id}\n`);
  } else io.out(`${existing.id} was already revoked\n`);
  return 0;
}

/** A key as --json prints it: budgets with their amounts in USD (exact decimal strings). */
function keyJson(record: KeyRecord) {
  return { ...record, budget: budgetView(record.budget), customerBudget: budgetView(record.customerBudget) };
}

/**
 * Accepts the id, the displayed prefix (mgw_<id>) or, pasted by mistake, the whole key, even with stray
 * spaces or invisible characters around it: only the part before the secret is kept, so the secret is
 * never looked up or echoed. Ids are base62, so an underscore always ends one.
 */
export function keyIdOf(arg: string): string {
  const compact = arg.replace(/[\s\p{Cf}]/gu, '');
  const untagged = compact.startsWith(`${KEY_TAG}_`) ? compact.slice(KEY_TAG.length + 1) : compact;
  const underscore = untagged.indexOf('_');
  return underscore === -1 ? untagged : untagged.slice(0, underscore);
}

function keyTable(keys: KeyRecord[], now: number): string {
  if (keys.length === 0) return 'no keys\n';
  return formatTable(
    ['ID', 'PREFIX', 'NAME', 'CUSTOMER', 'CREATED', 'LAST USED', 'EXPIRES', 'STATUS'],
    keys.map((k) => [
      k.id,
      k.prefix,
      k.name ?? '-',
      k.customerName,
      shortTime(k.createdAt),
      shortTime(k.lastUsedAt),
      shortTime(k.expiresAt),
      keyStatus(k, now),
    ]),
  );
}
