// `--workers N`: how many gateway processes to run. Default 1 (no cluster); `auto` = the cores.
import { availableParallelism } from 'node:os';

export class WorkerCountError extends Error {}

export function parseWorkerCount(raw: string | undefined, cores: number = availableParallelism()): number {
  if (raw === undefined || raw === '') return 1;
  if (raw === 'auto') return Math.max(1, cores);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new WorkerCountError(`--workers must be a whole number from 1 to 256 or "auto", got "${raw}"`);
  return n;
}
