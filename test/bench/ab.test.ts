// The A/B tool: its verdict arithmetic, and short runs of this build against its own compiled copy,
// with one pair of gateways for the run and with new ones every round.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { runAb, summarizeAb } from '../../bench/tools/ab.js';

t.test('the verdict is the median of each round\'s own ratio, not a ratio of pooled numbers', async (t) => {
  const s = summarizeAb([
    { passthrough: 100, A: 130, B: 110 },
    { passthrough: 200, A: 250, B: 230 },
    { passthrough: 100, A: 150, B: 120 },
  ]);
  t.equal(s.aToPassthrough, 1.3);
  t.equal(s.bToPassthrough, 1.15);
  t.equal(s.bToA, 0.846);
  t.equal(s.rounds.length, 3);
});

const dist = join(REPO_ROOT, 'dist');
t.test('a short A/B of this build against its compiled copy measures all three targets every round', { skip: existsSync(join(dist, 'bench/processes.js')) ? false : 'no dist/ (npm run build)' }, async (t) => {
  const lines: string[] = [];
  // Windows of 20 answers, not 0.3 s at full speed: the test reads that every window was measured, not its numbers.
  const s = await runAb({ baseline: dist, scenario: 'chat', rounds: 2, durationSec: 0.3, windowRequests: 20, connections: 2, log: (l) => lines.push(l) });
  t.equal(s.rounds.length, 2);
  for (const r of s.rounds) for (const v of [r.passthrough, r.A, r.B]) t.ok(Number.isFinite(v) && v > 0, `CPU per request measured (${v})`);
  t.ok(Number.isFinite(s.bToA) && s.bToA > 0, 'a B/A verdict');
  t.equal(lines.length, 2, 'one line per round');
});

t.test('with fresh gateways, every round measures a new A and a new B', { skip: existsSync(join(dist, 'bench/processes.js')) ? false : 'no dist/ (npm run build)' }, async (t) => {
  const lines: string[] = [];
  const s = await runAb({ baseline: dist, scenario: 'chat', rounds: 2, durationSec: 0.3, windowRequests: 20, connections: 2, fresh: true, log: (l) => lines.push(l) });
  t.equal(s.rounds.length, 2);
  for (const r of s.rounds) for (const v of [r.passthrough, r.A, r.B]) t.ok(Number.isFinite(v) && v > 0, `CPU per request measured (${v})`);
  const pairs = lines.filter((l) => l.startsWith('new gateways:'));
  t.equal(pairs.length, 2, 'a pair started for each round');
  const pids = pairs.flatMap((l) => [...l.matchAll(/pid (\d+)/g)].map((m) => m[1]));
  t.equal(new Set(pids).size, 4, `four processes, none measured twice (${pids.join(', ')})`);
  t.equal(lines.filter((l) => l.startsWith('round ')).length, 2, 'one line per round');
});
