// The unit tests run as a few tap processes instead of one per file: each `unit-N.test.ts` imports its
// share of `test/unit/**/*.test.js`, so tap starts (and loads the gateway's modules) three times
// rather than once per file, which was most of the unit suite's time. The shares are computed from the
// directory when the group runs, so a new unit file is always in exactly one group and cannot be
// forgotten; the split hashes each file's path, so a file stays in its group when others are added.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How many `unit-N.test.ts` files there are; a test checks that each one exists. */
export const UNIT_GROUP_COUNT = 3;

/** The compiled unit tests: `dist/test/unit/`, beside this file's own compiled folder. */
export const UNIT_DIR = fileURLToPath(new URL('../unit/', import.meta.url));

/** Every `*.test.js` under `dir` (fixtures left out), as paths relative to it with `/`, sorted: the unit files, or the browser files (`all-browser/`). */
export function compiledTestFiles(dir: string = UNIT_DIR): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .map((p) => p.split('\\').join('/'))
    .filter((p) => p.endsWith('.test.js') && !p.split('/').includes('fixtures'))
    .sort();
}

/** The group (1..count) a unit file belongs to: a stable hash of its relative path. */
export function groupOf(file: string, count: number = UNIT_GROUP_COUNT): number {
  const digest = createHash('sha1').update(file).digest();
  return (digest.readUInt32BE(0) % count) + 1;
}

/** The files of one group, in path order. */
export function filesOfGroup(group: number, files: string[], count: number = UNIT_GROUP_COUNT): string[] {
  return files.filter((f) => groupOf(f, count) === group);
}

/**
 * Imports every unit file of `group`, one after the other: each registers its tests on tap's root
 * test, which runs them in import order. An assertion's diagnostics name its own file and line, so a
 * failure points at the unit file, not at this group.
 */
export async function runUnitGroup(group: number): Promise<void> {
  for (const file of filesOfGroup(group, compiledTestFiles())) {
    await import(pathToFileURL(join(UNIT_DIR, file)).href);
  }
}
