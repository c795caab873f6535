// What the `keys` and `usage` commands share: where output goes, argument errors, and the one-line failure rule.
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

/** node:util parseArgs in strict mode, its errors turned into ArgError with the command's own usage line. */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, usage: string, positionals = false) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: positionals });
  } catch (err) {
    throw new ArgError(`${err instanceof Error ? err.message : String(err)} (usage: ${usage})`);
  }
}

export function positiveIntegerArg(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new ArgError(`--${flag} must be a positive integer, got "${value}"`);
  }
  return Number(value);
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
