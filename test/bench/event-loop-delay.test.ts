// The bench's event-loop delay: an idle loop reads (close to) zero, not the sampling interval, and a
// loop blocked for 40 ms reads about 40 ms at its maximum.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { SAMPLE_INTERVAL_MS, startDelayMonitor } from '../../bench/event-loop-delay.js';

t.test('an idle loop has no delay beyond the interval', async (t) => {
  const monitor = startDelayMonitor();
  await sleep(20 * SAMPLE_INTERVAL_MS);
  // Timers fire a little late even when idle; a shared machine adds more. The raw reading would be ≥ 5 ms.
  t.ok(monitor.percentileMs(50) < SAMPLE_INTERVAL_MS / 2, `p50 ${monitor.percentileMs(50)} ms`);
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
  t.ok(monitor.maxMs() >= 35 && monitor.maxMs() < 40 + 200, `max ${monitor.maxMs()} ms`);
});
