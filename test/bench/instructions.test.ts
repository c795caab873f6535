// The instruction counter: reading callgrind's report, and a short count of this build under valgrind.
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { countInstructions, missesPerRequest, programTotal, programTotals } from '../../bench/tools/instructions.js';

t.test('the total is read from the report, thousands separators and all', async (t) => {
  const report = ['--------', 'Ir', '--------', '661,209,144 (100.0%)  PROGRAM TOTALS', '', '55,384,549 ( 6.62%)  ???:Builtins_LoadIC'].join('\n');
  t.equal(programTotal(report), 661_209_144);
  t.throws(() => programTotal('no totals here'));
});

t.test('with the cache and branch simulation: every event of the totals, and the misses per request summed by kind', async (t) => {
  const report = [
    'Events recorded:  Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim',
    'Events shown:     Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim',
    '--------',
    '350,061,412 (100.0%) 97,029,293 (100.0%) 51,758,602 (100.0%) 11,394,356 (100.0%) 6,302,080 (100.0%) 1,077,324 (100.0%) 15,616 (100.0%) 16,321 (100.0%) 563,727 (100.0%) 61,461,356 (100.0%) 6,842,654 (100.0%) 2,124,470 (100.0%) 1,119,627 (100.0%)  PROGRAM TOTALS',
    '',
    '26,307,716 ( 7.52%) 1 ( 0.00%) 1 ( 0.00%) 87,362 ( 0.77%) 514,930 ( 8.17%) 0 ( 0.00%) 0 ( 0.00%) 0 ( 0.00%) 0 ( 0.00%) 0 ( 0.00%) 0 ( 0.00%) 0 ( 0.00%) 0 ( 0.00%)  ???:Builtins_LoadIC',
  ].join('\n');
  const totals = programTotals(report);
  t.equal(totals.Ir, 350_061_412);
  t.equal(totals.I1mr, 11_394_356);
  t.equal(totals.Bim, 1_119_627);
  t.equal(programTotal(report), 350_061_412);
  t.same(missesPerRequest(totals, 1000), { i1: 11_394, d1: 7_379, ll: 596, branches: 7_962 });
  t.equal(missesPerRequest({ Ir: 5 }, 1), null, 'no simulation, no misses');
  t.throws(() => programTotals(report.replace('Bi Bim\n--------', 'Bi\n--------')), /13 counts for 12 events/);
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

t.test('a short count of this build, caches simulated: instructions and misses for each request', valgrind, async (t) => {
  const r = await countInstructions({ build: REPO_ROOT, scenario: 'chat', warmup: 20, requests: 10, connections: 2, cacheSim: true });
  t.ok(r.perRequest > 10_000, `${r.perRequest} instructions per request`);
  t.equal(r.perRequest, Math.round(r.total / 10));
  const m = r.misses;
  t.ok(m !== null && m.i1 > 0 && m.d1 > 0 && m.branches > 0, `simulated misses per request: ${JSON.stringify(m)}`);
  t.ok(m !== null && m.i1 < r.perRequest && m.branches < r.perRequest, 'fewer misses than instructions');
});
