import t from 'tap';
import { parseWorkerCount, WorkerCountError } from '../../../../src/apps/cluster/worker-count.js';

t.test('--workers values', async (t) => {
  const cases: [string | undefined, number][] = [
    [undefined, 1],
    ['', 1],
    ['1', 1],
    ['4', 4],
    ['auto', 6],
    ['256', 256],
  ];
  for (const [raw, expected] of cases) t.equal(parseWorkerCount(raw, 6), expected, `${JSON.stringify(raw)} → ${expected}`);
});

t.test('auto on a one-core machine is one worker', async (t) => {
  t.equal(parseWorkerCount('auto', 1), 1);
});

t.test('anything else is refused with a reason', async (t) => {
  for (const raw of ['0', '-1', '1.5', 'two', '257', 'AUTO']) {
    let caught: unknown = null;
    try {
      parseWorkerCount(raw, 4);
    } catch (err) {
      caught = err;
    }
    t.ok(caught instanceof WorkerCountError, `${JSON.stringify(raw)} is refused`);
    t.match((caught as Error).message, /--workers must be .* got "/, 'the reason names the flag and the value');
  }
});
