// The CPU target's ratio: each round's gateway window against the same round's pass-through window,
// then the median, so one slow stretch of the machine moves one round's ratio, not the verdict.
import t from 'tap';
import type { ProcessStats } from '../../bench/ipc.js';
import type { Window } from '../../bench/measure.js';
import { emptyGcTally } from '../../bench/gc-tally.js';
import { roundCpuRatios } from '../../bench/results.js';
import { median } from '../../bench/percentiles.js';

function window(cpuUs: number, answered: number): Window {
  const stats: ProcessStats = { rssBytes: 0, rssPeakBytes: 0, heapUsedBytes: 0, eldP50Ms: 0, eldP99Ms: 0, eldMaxMs: 0, cpuUs, wallMs: 5000, inFlightPeak: 0, gc: emptyGcTally() };
  const load = { ok: answered, unexpected: 0, rps: answered / 5, latencyMs: [] } as unknown as Window['load'];
  return { load, mixIn: null, probe: null, proxy: stats, simulator: stats, answered };
}

t.test('rounds are paired by index and their ratios taken per request', async (t) => {
  // 30,000 requests at 130 µs against 40,000 at 100 µs: 1.3.
  t.same(roundCpuRatios([window(3_900_000, 30_000)], [window(4_000_000, 40_000)]), [1.3]);
});

t.test('a slow stretch in one round moves that round only; pooling would let it decide', async (t) => {
  // Round 2 ran while the machine was slow: the pass-through's window cost 40% more per request.
  const gateway = [window(125 * 10_000, 10_000), window(126 * 10_000, 10_000), window(124 * 10_000, 10_000)];
  const passthrough = [window(100 * 12_000, 12_000), window(140 * 12_000, 12_000), window(100 * 12_000, 12_000)];
  const ratios = roundCpuRatios(gateway, passthrough);
  t.same(ratios, [1.25, 0.9, 1.24]);
  t.equal(median(ratios), 1.24);
  const pooled = (125 + 126 + 124) / 3 / ((100 + 140 + 100) / 3);
  t.ok(Math.abs(pooled - 1.103) < 0.001, 'pooled, the slow round pulls the ratio to 1.10');
});

t.test('a window without a proxy gives no ratio', async (t) => {
  const direct = { ...window(1, 1), proxy: null };
  t.ok(Number.isNaN(roundCpuRatios([direct], [window(1, 1)])[0]));
});
