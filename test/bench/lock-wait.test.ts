// The lock-wait tool writes last-use times on each connection while usage rows go in, and times each call.
import t from 'tap';
import { measureLockWait } from '../../bench/tools/lock-wait.js';

t.test('each way of writing last-use times is timed over real writes beside the usage thread', async (t) => {
  for (const on of ['main', 'thread'] as const) {
    const w = await measureLockWait(on, 0.3);
    t.equal(w.on, on);
    t.ok(w.writes > 5, `${on}: ${w.writes} last-use writes`);
    t.ok(w.p50Ms >= 0 && w.p50Ms <= w.p99Ms && w.p99Ms <= w.maxMs, `${on}: ${w.p50Ms} / ${w.p99Ms} / ${w.maxMs} ms in order`);
    t.ok(w.overOneMs <= w.writes);
  }
});
