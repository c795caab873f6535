// npm test's runner: tap's output untouched, then only the innermost failures, each with where it sits
// and what its diagnostics say (no stack, no source excerpt), and tap's exit code.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { envWithoutTestRunner } from '../../helpers/runner-env.js';

const FIXTURES = 'test/unit/scripts/fixtures';

/**
 * The runner on one fixture, in a project of its own: the repository's packages, scripts and compiled
 * test helpers linked in, its settings and the fixture copied (at the same path, which the summary
 * names), and its own `.tap` folder. A tap run empties `.tap/processinfo` as it starts, so one started in the repository itself
 * races the run this test is part of (a loaded CI runner saw it exit 1 having printed nothing).
 */
function run(t: Test, fixture: string) {
  const root = t.testdir();
  for (const dir of ['node_modules', 'scripts']) symlinkSync(resolve(dir), join(root, dir));
  for (const f of ['package.json', 'tsconfig.json']) copyFileSync(f, join(root, f));
  // The settings' preload for every test process (`"node-arg"`) lives with the compiled helpers.
  mkdirSync(join(root, 'dist/test'), { recursive: true });
  symlinkSync(resolve('dist/test/helpers'), join(root, 'dist/test/helpers'));
  // Tests run compiled: the fixture's compiled file, where tap places its failures.
  const file = `dist/${FIXTURES}/${fixture.replace(/\.ts$/, '.js')}`;
  mkdirSync(dirname(join(root, file)), { recursive: true });
  copyFileSync(file, join(root, file));
  // Without the variables of the tap run this test is in (its own TAP_*, the process tracker's
  // _TAPJS_* and the preload it puts in NODE_OPTIONS): the runner starts a tap of its own.
  const env = envWithoutTestRunner();
  const r = spawnSync(process.execPath, ['scripts/run-tap.mjs', '--disable-coverage', '--reporter=tap', file], { cwd: root, encoding: 'utf8', env, timeout: 60_000 });
  if (r.stdout === '') t.comment(`the runner printed nothing; its stderr:\n${r.stderr}`);
  return r;
}

t.test('failures at every depth are listed at the end, each once, with its diff', async (t) => {
  const r = run(t, 'fails-inside.tap.ts');
  t.equal(r.status, 1, "tap's exit code");
  const [output, summary] = r.stdout.split('\n# 3 failure(s):\n');
  t.match(output, /# Subtest: outer\n/, "tap's own output comes first, untouched");
  t.ok(summary !== undefined, 'three failures, not the subtests that hold them again');
  const listed = summary!.split('\n').filter((l) => l.startsWith('#   not ok: '));
  t.same(listed, [
    '#   not ok: dist/test/unit/scripts/fixtures/fails-inside.tap.js > outer > inner > objects differ (dist/test/unit/scripts/fixtures/fails-inside.tap.js:6)',
    '#   not ok: dist/test/unit/scripts/fixtures/fails-inside.tap.js > outer > an assertion beside the subtest (dist/test/unit/scripts/fixtures/fails-inside.tap.js:8)',
    '#   not ok: dist/test/unit/scripts/fixtures/fails-inside.tap.js > top fails (dist/test/unit/scripts/fixtures/fails-inside.tap.js:12)',
  ]);
  t.match(summary, /#       -  "a": 2,\n#       \+  "a": 1,/, 'the diff of the objects');
  t.notMatch(summary, /stack:|source:|columnNumber/, 'no stack or source excerpt');
});

t.test('a passing run: its output and exit code as tap gives them, no summary', async (t) => {
  const r = run(t, 'passes.tap.ts');
  t.equal(r.status, 0);
  t.match(r.stdout, /^ok 1 - dist\/test\/unit\/scripts\/fixtures\/passes\.tap\.js/m);
  t.notMatch(r.stdout, /failure\(s\)/);
});
