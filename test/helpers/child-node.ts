// Node child processes as tests start them. Tests run compiled (dist/test/), so every child is a
// compiled file of dist/ too, started without any loader.
import { execFile, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess, SpawnOptions, SpawnSyncOptionsWithStringEncoding, SpawnSyncReturns } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `model-gateway` command's entry (dist/src/main.js). */
export const GATEWAY_MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Env = Record<string, string | undefined>;

/** Starts `file` with exactly `options.env`. */
export function spawnNode(file: string, args: readonly string[], options: SpawnOptions & { env: Env }): ChildProcess {
  return spawn(process.execPath, [file, ...args], options);
}

export function spawnNodeSync(file: string, args: readonly string[], options: SpawnSyncOptionsWithStringEncoding & { env: Env }): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [file, ...args], options);
}

/** Runs `file` to its end with this process's environment plus `env`; its exit code and output. */
export function runNode(file: string, args: readonly string[], env: Record<string, string> = {}): Promise<ChildResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
