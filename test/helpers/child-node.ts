// Node child processes as tests start them: a file's compiled twin when the build is current, its
// source under this runner's TypeScript loader otherwise (src/lib/runnable-file.ts decides). Starting
// the loader costs seconds per child; most children of the suite are `model-gateway` itself.
import { execFile, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess, SpawnOptions, SpawnSyncOptionsWithStringEncoding, SpawnSyncReturns } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runnableFile } from '../../src/lib/runnable-file.js';

/** The `model-gateway` command's entry (src/main.ts). */
export const GATEWAY_MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Env = Record<string, string | undefined>;

function command(file: string, args: readonly string[], env: Env): { argv: string[]; env: Env } {
  const runnable = runnableFile(file);
  return { argv: [...runnable.loaderArgs, runnable.file, ...args], env: { ...runnable.env, ...env } };
}

/** Starts `file` with exactly `options.env` (plus what the loader needs, when it runs). */
export function spawnNode(file: string, args: readonly string[], options: SpawnOptions & { env: Env }): ChildProcess {
  const run = command(file, args, options.env);
  return spawn(process.execPath, run.argv, { ...options, env: run.env });
}

export function spawnNodeSync(file: string, args: readonly string[], options: SpawnSyncOptionsWithStringEncoding & { env: Env }): SpawnSyncReturns<string> {
  const run = command(file, args, options.env);
  return spawnSync(process.execPath, run.argv, { ...options, env: run.env });
}

/** Runs `file` to its end with this process's environment plus `env`; its exit code and output. */
export function runNode(file: string, args: readonly string[], env: Record<string, string> = {}): Promise<ChildResult> {
  const run = command(file, args, { ...process.env, ...env });
  return new Promise((resolve) => {
    execFile(process.execPath, run.argv, { env: run.env }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
