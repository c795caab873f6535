// The tracing cost tool: a short run of both scenarios measures tracing off and on every round, and
// the gateway with tracing on really exports to the bench's collector.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { measureTracingCost } from '../../bench/tools/tracing.js';

t.test('a short run: CPU per request with tracing off and on, and spans exported', { skip: existsSync(join(REPO_ROOT, 'dist/bench/processes.js')) ? false : 'no dist/ (npm run build)' }, async (t) => {
  const lines: string[] = [];
  // Windows of 20 answers, not 0.5 s at full speed: the test reads that both were measured and spans exported, not the numbers.
  const results = await measureTracingCost({ scenarios: ['messages'], rounds: 1, durationSec: 0.5, windowRequests: 20, connections: 2, protocol: 'http/protobuf', pin: false, log: (l) => lines.push(l) });
  t.equal(results.length, 1);
  const [r] = results;
  for (const v of [r.summary.rounds[0].A, r.summary.rounds[0].B]) t.ok(Number.isFinite(v) && v > 0, `CPU per request measured (${v})`);
  t.ok(r.exports > 0 && r.bytes > 0, `the collector received ${r.exports} exports`);
  t.equal(lines.length, 1, 'one line per round');
});
