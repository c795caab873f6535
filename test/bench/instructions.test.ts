// The instruction counter: reading callgrind's report, and a short count of this build under valgrind.
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { countInstructions, programTotal } from '../../bench/tools/instructions.js';

t.test('the total is read from the report, thousands separators and all', async (t) => {
  const report = ['--------', 'Ir', '--------', '661,209,144 (100.0%)  PROGRAM TOTALS', '', '55,384,549 ( 6.62%)  ???:Builtins_LoadIC'].join('\n');
  t.equal(programTotal(report), 661_209_144);
  t.throws(() => programTotal('no totals here'));
});

function hasValgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Under valgrind every instruction is emulated (about 50 times slower): the count is as short as shows
// the tool working, and the file has room for a loaded machine (the gateway's start alone took most of the
// suite's 120 s per file at a load of 15).
t.setTimeout(400_000);
const valgrind = { skip: hasValgrind() ? false : 'valgrind is not installed' };

t.test('a short count of this build: a positive number of instructions for each request', valgrind, async (t) => {
  const r = await countInstructions({ build: REPO_ROOT, scenario: 'chat', warmup: 20, requests: 10, connections: 2 });
  t.ok(r.perRequest > 10_000, `${r.perRequest} instructions per request`);
  t.equal(r.perRequest, Math.round(r.total / 10));
});
