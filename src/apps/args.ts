// What the commands share: where output goes, argument parsing and errors, and the one-line failure rule.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../lib/error-message.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

/** Bad arguments: exit code 2, as shells and most CLIs use for usage errors. */
export class ArgError extends Error {
  override name = 'ArgError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs in strict mode, its errors turned into ArgError with the command's own usage line. */
export function parseCommandArgs<O extends Options>(argv: readonly string[], options: O, usage: string, positionals = false) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals });
  } catch (err) {
    throw new ArgError(`${parseErrorReason(err)} (usage: ${usage})`);
  }
}

/**
 * node:util's parse errors quote the argument they stumbled on, which may be a key pasted in the wrong
 * place. This says the same without repeating any value, naming an option only when it plainly is one.
 */
export function parseErrorReason(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const quoted = /'(--?[^'\s=,]*)/.exec(message)?.[1] ?? '';
  const option = /^--?[a-z][a-z-]{0,30}$/.test(quoted) ? ` ${quoted}` : '';
  switch ((err as { code?: string }).code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option${option}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'unexpected argument';
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return message.includes('does not take an argument') ? `option${option} takes no value` : `option${option} needs a value`;
    default:
      return 'invalid arguments';
  }
}

/** Longer than this, an argument is not repeated in an error: a gateway key is 64 characters, its secret 43. */
const MAX_SHOWN_ARGUMENT = 32;

/**
 * An argument as an error line may quote it: short and printable, or not at all, so that a key pasted
 * in the wrong place never reaches the terminal or a CI log.
 */
export function shownArgument(arg: string): string {
  return arg.length <= MAX_SHOWN_ARGUMENT && /^[\x21-\x7e]+$/.test(arg) ? `"${arg}"` : `(not shown: ${arg.length} characters)`;
}

export const MAX_PORT = 65535;

/** The number a string of decimal digits (nothing else) stands for, when it is a safe integer from min to max. */
export function integerInRange(raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

/** `--flag N` with N >= 1, written without leading zeros; undefined when the option is absent. */
export function positiveIntegerArg(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = value.startsWith('0') ? undefined : integerInRange(value, 1);
  if (n === undefined) throw new ArgError(`--${flag} must be a positive integer, got ${shownArgument(value)}`);
  return n;
}

/** `--flag N` with 0 <= N <= max; the fallback when the option is absent. */
export function nonNegativeIntegerArg(flag: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = integerInRange(value, 0, max);
  if (n === undefined) throw new ArgError(`--${flag} must be an integer from 0 to ${max}, got ${shownArgument(value)}`);
  return n;
}

/** Runs a command body: any failure becomes one line on stderr and a non-zero exit code, never a stack trace. */
export async function runCommand(io: CliIo, command: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    const message = errorMessage(err);
    io.err(`model-gateway ${command}: ${message.split('\n')[0]}\n`);
    return err instanceof ArgError ? 2 : 1;
  }
}
