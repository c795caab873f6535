// What the commands share: where output goes, argument parsing and errors, and the one-line failure rule.
import { parseArgs, type ParseArgsConfig } from 'node:util';

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

/**
 * node:util parseArgs in strict mode, its errors turned into ArgError with the command's own usage line
 * (without a usage line, node:util's message as it is).
 */
export function parseCommandArgs<O extends Options>(argv: readonly string[], options: O, usage?: string, positionals = false) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ArgError(usage === undefined ? message : `${message} (usage: ${usage})`);
  }
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
  if (n === undefined) throw new ArgError(`--${flag} must be a positive integer, got "${value}"`);
  return n;
}

/** `--flag N` with 0 <= N <= max; the fallback when the option is absent. */
export function nonNegativeIntegerArg(flag: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = integerInRange(value, 0, max);
  if (n === undefined) throw new ArgError(`--${flag} must be an integer from 0 to ${max}, got "${value}"`);
  return n;
}

/** Runs a command body: any failure becomes one line on stderr and a non-zero exit code, never a stack trace. */
export async function runCommand(io: CliIo, command: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    io.err(`model-gateway ${command}: ${message.split('\n')[0]}\n`);
    return err instanceof ArgError ? 2 : 1;
  }
}
