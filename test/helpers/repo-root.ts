// The repository's root folder. Tests run compiled, from dist/test/, so a path relative to a test
// file's own location would point into dist/; files of the repository (docs, deploy files, sources,
// fixtures that are not compiled) are found from here instead.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A text file of the repository, by its path from the root. */
export function repoText(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}
