// The first step of `npm run build`: dist/ keeps only what the sources still make, so the build after
// it (`tsc -b`, incremental) compiles only what changed. `npm ci` builds once (`prepare`) and `npm test`
// builds again; wiping dist/ made that second build a full one (about 45 s of CPU), now it is a check of
// timestamps (under a second).
//
// - A compiled file whose source was deleted or renamed is removed: the test runner picks up every
//   dist/test/**/*.test.js, so a stale twin would keep running.
// - A copied asset (migrations, dashboard files) whose source is gone is removed too.
// - If a compiled file is missing while its source is there and older than the last build (dist/
//   edited by hand), tsc's build info would not emit it again: dist/ is wiped and built anew. A source
//   newer than the last build (a file just added) is compiled by the incremental build anyway.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const DIST = 'dist';
const COMPILED_ROOTS = ['src', 'test', 'bench'];

/** Every file under `dir`, as paths relative to the working directory. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The source a file of dist/ came from: `x.js`/`x.js.map` from `x.ts`, `x.cjs` from `x.cts`, an asset from itself. */
function sourcesOf(distFile) {
  const path = relative(DIST, distFile);
  const compiled = /^(.*)\.(c?)js(\.map)?$/.exec(path);
  if (compiled === null) return [path];
  return [`${compiled[1]}.${compiled[2]}ts`, path];
}

/** The compiled file a source makes, or null for files tsc does not compile (declarations, fixtures). */
function outputOf(sourceFile) {
  if (sourceFile.endsWith('.d.ts')) return null;
  const m = /^(.*)\.(c?)ts$/.exec(sourceFile);
  return m === null ? null : join(DIST, `${m[1]}.${m[2]}js`);
}

const BUILD_INFO = join(DIST, '.tsbuildinfo');

/** A source compiled by the last build whose output is gone. */
function lostOutput(sourceFile, lastBuild) {
  const out = outputOf(sourceFile);
  return out !== null && !existsSync(out) && statSync(sourceFile).mtimeMs <= lastBuild;
}

if (existsSync(DIST)) {
  const lastBuild = existsSync(BUILD_INFO) ? statSync(BUILD_INFO).mtimeMs : Infinity;
  if (COMPILED_ROOTS.flatMap(filesUnder).some((s) => lostOutput(s, lastBuild))) {
    rmSync(DIST, { recursive: true, force: true });
  } else {
    for (const file of filesUnder(DIST)) {
      if (file === BUILD_INFO) continue;
      if (!sourcesOf(file).some((s) => existsSync(s))) rmSync(file);
    }
  }
}
