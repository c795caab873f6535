// `model-gateway <command> ...`: picks the command, and turns whatever it throws into one line on
// stderr. The usage text is printed for --help only; every other failure points to it in one line.
import type { SignalSource } from './signals.js';
import { ArgError, processIo, shownArgument, type CliIo } from '../args.js';
import { HELP_HINT, isHelpFlag, USAGE_TEXT } from './help.js';
import { errorMessage } from '../../lib/error-message.js';

type Env = Record<string, string | undefined>;

interface CliContext {
  io: CliIo;
  env: Env;
  signals: SignalSource;
}

type Command = (argv: string[], ctx: CliContext) => Promise<number>;

// Loaded on demand: `keys list` should not pay for loading the gateway.
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => {
    const { runServe } = await import('./serve.js');
    return (argv) => runServe(argv);
  },
  keys: async () => {
    const [{ runKeys }, { databaseUrlOf, maxKeysPerCustomerOf }] = await Promise.all([import('./keys.js'), import('../../config/config.js')]);
    return (argv, { io, env }) => runKeys(argv, { databaseUrl: databaseUrlOf(env), maxKeysPerCustomer: maxKeysPerCustomerOf(env) }, io);
  },
  customers: async () => {
    const [{ runCustomers }, { databaseUrlOf }] = await Promise.all([import('./customers.js'), import('../../config/config.js')]);
    return (argv, { io, env }) => runCustomers(argv, { databaseUrl: databaseUrlOf(env) }, io);
  },
  usage: async () => {
    const [{ runUsage }, { databaseUrlOf }] = await Promise.all([import('./usage.js'), import('../../config/config.js')]);
    return (argv, { io, env }) => runUsage(argv, { databaseUrl: databaseUrlOf(env) }, io);
  },
  audit: async () => {
    const [{ runAudit }, { databaseUrlOf }] = await Promise.all([import('./audit.js'), import('../../config/config.js')]);
    return (argv, { io, env }) => runAudit(argv, { databaseUrl: databaseUrlOf(env) }, io);
  },
  migrate: async () => {
    const [{ runMigrate }, { databaseUrlOf }] = await Promise.all([import('./migrate.js'), import('../../config/config.js')]);
    return (argv, { io, env }) => runMigrate(argv, { databaseUrl: databaseUrlOf(env) }, io);
  },
  simulator: async () => {
    const { runSimulator } = await import('./simulator.js');
    return (argv, { io, signals }) => runSimulator(argv, io, signals);
  },
  proxy: async () => {
    const { runProxy } = await import('./proxy.js');
    return (argv, { io, signals, env }) => runProxy(argv, io, signals, env);
  },
};

/** The exit code; bad arguments are 2, any other failure 1. */
export async function runCli(argv: string[], io: CliIo = processIo, env: Env = process.env, signals: SignalSource = process): Promise<number> {
  const [first, ...rest] = argv;
  // Options without a command belong to `serve`, the default command.
  const defaulted = first === undefined || (first.startsWith('-') && !isHelpFlag(first));
  const name = defaulted ? 'serve' : first;
  const args = defaulted ? argv : rest;
  if (isHelpFlag(name) || isHelpFlag(args[0])) {
    io.out(`${USAGE_TEXT}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (load === undefined) {
    io.err(`model-gateway: unknown command ${shownArgument(name)} (${HELP_HINT})\n`);
    return 2;
  }
  try {
    return await (await load())(args, { io, env, signals });
  } catch (err) {
    const message = errorMessage(err);
    io.err(`model-gateway: ${message.split('\n')[0]}\n`);
    return err instanceof ArgError ? 2 : 1;
  }
}
