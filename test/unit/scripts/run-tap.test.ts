// npm test's runner: tap's output untouched, then only the innermost failures, each with where it sits
// and what its diagnostics say (no stack, no source excerpt), and tap's exit code.
import { spawnSync } from 'node:child_process';
import t from 'tap';

const run = (file: string) => {
  // Without the TAP_* variables of the tap run this test is in: the runner starts a tap of its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TAP')));
  return spawnSync(process.execPath, ['scripts/run-tap.mjs', '--disable-coverage', '--reporter=tap', file], { encoding: 'utf8', env, timeout: 60_000 });
};

t.test('failures at every depth are listed at the end, each once, with its diff', async (t) => {
  const r = run('test/unit/scripts/fixtures/fails-inside.tap.ts');
  t.equal(r.status, 1, "tap's exit code");
  const [output, summary] = r.stdout.split('\n# 3 failure(s):\n');
  t.match(output, /# Subtest: outer\n/, "tap's own output comes first, untouched");
  t.ok(summary !== undefined, 'three failures, not the subtests that hold them again');
  const listed = summary!.split('\n').filter((l) => l.startsWith('#   not ok: '));
  t.same(listed, [
    '#   not ok: test/unit/scripts/fixtures/fails-inside.tap.ts > outer > inner > objects differ (test/unit/scripts/fixtures/fails-inside.tap.ts:7)',
    '#   not ok: test/unit/scripts/fixtures/fails-inside.tap.ts > outer > an assertion beside the subtest (test/unit/scripts/fixtures/fails-inside.tap.ts:9)',
    '#   not ok: test/unit/scripts/fixtures/fails-inside.tap.ts > top fails (test/unit/scripts/fixtures/fails-inside.tap.ts:13)',
  ]);
  t.match(summary, /#       -  "a": 2,\n#       \+  "a": 1,/, 'the diff of the objects');
  t.notMatch(summary, /stack:|source:|columnNumber/, 'no stack or source excerpt');
});

t.test('a passing run: its output and exit code as tap gives them, no summary', async (t) => {
  const r = run('test/unit/policy/ratelimit/redis/lease.test.ts');
  t.equal(r.status, 0);
  t.match(r.stdout, /^ok 1 - test\/unit\/policy\/ratelimit\/redis\/lease\.test\.ts/m);
  t.notMatch(r.stdout, /failure\(s\)/);
});
