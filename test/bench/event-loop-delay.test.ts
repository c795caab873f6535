// The bench's event-loop delay: a reading is the delay beyond the sampling interval (an idle loop reads
// zero, not the interval), and a loop blocked for 40 ms shows the block at its maximum.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { beyondInterval, SAMPLE_INTERVAL_MS, startDelayMonitor } from '../../bench/event-loop-delay.js';

t.test('a reading is the delay beyond the sampling interval, never negative', async (t) => {
  const ms = 1e6;
  const cases: Array<[rawNs: number, wantMs: number]> = [
    [SAMPLE_INTERVAL_MS * ms, 0], // an idle loop: the timer came on time
    [(SAMPLE_INTERVAL_MS - 1) * ms, 0], // a timer a little early is not negative delay
    [(SAMPLE_INTERVAL_MS + 2.5) * ms, 2.5],
    [(SAMPLE_INTERVAL_MS + 40) * ms, 40],
  ];
  for (const [raw, want] of cases) t.equal(beyondInterval(raw), want, `${raw / ms} ms between callbacks`);
});

t.test('the monitor reads its source through it: percentiles and the maximum', async (t) => {
  const raw = new Map([[50, (SAMPLE_INTERVAL_MS + 0.5) * 1e6], [99, (SAMPLE_INTERVAL_MS + 3) * 1e6]]);
  let enabled = false;
  let resets = 0;
  const source = { enable: () => (enabled = true), reset: () => void resets++, percentile: (p: number) => raw.get(p) ?? 0, max: (SAMPLE_INTERVAL_MS + 12) * 1e6 };
  const monitor = startDelayMonitor(source);
  t.ok(enabled, 'the source is enabled');
  t.equal(monitor.percentileMs(50), 0.5);
  t.equal(monitor.percentileMs(99), 3);
  t.equal(monitor.maxMs(), 12);
  monitor.reset();
  t.equal(resets, 1, 'reset reaches the source');
});

t.test('a blocked loop shows the block', async (t) => {
  const monitor = startDelayMonitor();
  await sleep(4 * SAMPLE_INTERVAL_MS);
  monitor.reset();
  // The first tick after a reset only restarts the clock; the block must come after it.
  await sleep(2 * SAMPLE_INTERVAL_MS);
  const until = performance.now() + 40;
  while (performance.now() < until);
  await sleep(4 * SAMPLE_INTERVAL_MS);
  // At least the block less one interval; a loaded machine may add any amount, so there is no upper bound.
  t.ok(monitor.maxMs() >= 40 - SAMPLE_INTERVAL_MS, `max ${monitor.maxMs()} ms`);
});
