// The pool phase's decision rule: lower event-loop delay, small requests not more than 10% slower.
import t from 'tap';
import { poolWins, type PoolVariant } from '../../bench/phases/pool-decision.js';

const inline: PoolVariant = {
  smallRps: 400, smallP50Ms: 10, smallP99Ms: 40, largeRps: 8, largeP99Ms: 90, eldP99Ms: 16, eldMaxMs: 22, cpuUsPerRequest: 460, rssPeakMiB: 150,
};

t.test('the pool wins only with a lower delay and small requests at most 10% slower', async (t) => {
  const cases: Array<[string, Partial<PoolVariant>, boolean]> = [
    ['lower delay, same latency', { eldP99Ms: 12 }, true],
    ['lower delay, 10% slower at p50 and p99', { eldP99Ms: 12, smallP50Ms: 11, smallP99Ms: 44 }, true],
    ['lower delay, p50 29% slower', { eldP99Ms: 13.6, smallP50Ms: 12.9 }, false],
    ['lower delay, p99 15% slower', { eldP99Ms: 12, smallP99Ms: 46 }, false],
    ['same delay', { eldP99Ms: 16 }, false],
    ['higher delay, faster small requests', { eldP99Ms: 20, smallP50Ms: 8 }, false],
  ];
  for (const [name, change, wins] of cases) t.equal(poolWins(inline, { ...inline, ...change }), wins, name);
});
