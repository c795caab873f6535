// The command line as the binary runs it (runCli, in process) on a temporary SQLite database of the
// test's own: what the CLI tests of customers, limits and budgets share.
import { join } from 'node:path';
import type { Test } from 'tap';
import { runCli } from '../../src/apps/cli/dispatch.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function tempCli(t: Test): { cli: (...argv: string[]) => Promise<CliRun>; url: string } {
  const url = `file:${join(t.testdir(), 'data', 'gateway.db')}`;
  const cli = async (...argv: string[]): Promise<CliRun> => {
    let stdout = '';
    let stderr = '';
    const io = { out: (s: string) => void (stdout += s), err: (s: string) => void (stderr += s) };
    const code = await runCli(argv, io, { DATABASE_URL: url });
    return { code, stdout, stderr };
  };
  return { cli, url };
}
