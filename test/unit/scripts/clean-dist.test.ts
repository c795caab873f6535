// The build's first step: dist/ keeps what the sources still make (so `tsc -b` stays incremental), loses
// the twins of deleted sources, and is wiped when an output the last build made has gone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';

const SCRIPT = resolve('scripts/clean-dist.mjs');

/** A project in a folder of its own: each file written (with its age in seconds, if given). */
function project(t: Test, files: Record<string, number | null>): string {
  const root = t.testdir();
  const now = Date.now() / 1000;
  for (const [path, ageSeconds] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
    if (ageSeconds !== null) utimesSync(file, now - ageSeconds, now - ageSeconds);
  }
  return root;
}

function clean(t: Test, root: string): void {
  const r = spawnSync(process.execPath, [SCRIPT], { cwd: root, encoding: 'utf8' });
  t.equal(r.status, 0, `clean-dist exits 0 (stderr: ${r.stderr})`);
}

t.test('the twins of deleted sources go, everything still made stays', async (t) => {
  const root = project(t, {
    'src/a.ts': 60,
    'src/w.cts': 60,
    'test/a.test.ts': 60,
    'src/admin/static/index.html': 60,
    'dist/.tsbuildinfo': 30,
    'dist/src/a.js': 30,
    'dist/src/a.js.map': 30,
    'dist/src/w.cjs': 30,
    'dist/test/a.test.js': 30,
    'dist/src/admin/static/index.html': 30,
    'dist/src/gone.js': 30,
    'dist/src/gone.js.map': 30,
    'dist/test/renamed.test.js': 30,
    'dist/src/admin/static/old.css': 30,
  });
  clean(t, root);
  for (const kept of ['.tsbuildinfo', 'src/a.js', 'src/a.js.map', 'src/w.cjs', 'test/a.test.js', 'src/admin/static/index.html']) {
    t.ok(existsSync(join(root, 'dist', kept)), `${kept} kept`);
  }
  for (const gone of ['src/gone.js', 'src/gone.js.map', 'test/renamed.test.js', 'src/admin/static/old.css']) {
    t.notOk(existsSync(join(root, 'dist', gone)), `${gone} removed`);
  }
});

t.test('an output the last build made and that is gone: dist/ is wiped, so the build makes it again', async (t) => {
  const root = project(t, { 'src/a.ts': 60, 'src/b.ts': 60, 'dist/.tsbuildinfo': 30, 'dist/src/a.js': 30 });
  clean(t, root);
  t.notOk(existsSync(join(root, 'dist')), 'dist/ wiped');
});

t.test('a source newer than the last build has no output yet: that is the incremental build\'s job', async (t) => {
  const root = project(t, { 'src/a.ts': 60, 'src/new.ts': 0, 'src/types.d.ts': 60, 'dist/.tsbuildinfo': 30, 'dist/src/a.js': 30 });
  clean(t, root);
  t.ok(existsSync(join(root, 'dist/src/a.js')), 'dist/ kept');
  t.ok(existsSync(join(root, 'dist/.tsbuildinfo')), 'with its build info');
});

t.test('no dist/ yet: nothing to do', async (t) => {
  const root = project(t, { 'src/a.ts': 60 });
  clean(t, root);
  t.notOk(existsSync(join(root, 'dist')));
});
