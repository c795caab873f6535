// The window arithmetic of the circuit breakers: what a call counts for, and when it leaves.
import t from 'tap';
import { RollingWindow } from '../../../../src/policy/resilience/rolling-window.js';

type Call = [at: number, failed: boolean];

interface Case {
  name: string;
  windowMs: number;
  calls: Call[];
  /** When the totals are read. */
  at: number;
  calls_: number;
  failures: number;
}

// Window 1000 ms in 10 slices of 100 ms: a call at t counts until the slice 10 slices after its own begins.
const CASES: Case[] = [
  { name: 'empty', windowMs: 1000, calls: [], at: 0, calls_: 0, failures: 0 },
  { name: 'calls in one slice add up', windowMs: 1000, calls: [[0, true], [10, false], [99, true]], at: 99, calls_: 3, failures: 2 },
  { name: 'calls across the window add up', windowMs: 1000, calls: [[0, true], [450, false], [999, true]], at: 999, calls_: 3, failures: 2 },
  { name: 'the oldest slice leaves when its tenth successor begins', windowMs: 1000, calls: [[50, true], [450, false]], at: 1000, calls_: 1, failures: 0 },
  { name: 'a slice stays while the window still overlaps it', windowMs: 1000, calls: [[50, true], [450, false]], at: 999, calls_: 2, failures: 1 },
  { name: 'a call late in its slice leaves early (the window is exact to a slice)', windowMs: 1000, calls: [[99, true]], at: 1000, calls_: 0, failures: 0 },
  { name: 'a gap longer than the window clears everything', windowMs: 1000, calls: [[0, true], [500, true]], at: 60_000, calls_: 0, failures: 0 },
  { name: 'a gap of many windows then new calls: only the new ones', windowMs: 1000, calls: [[0, true], [500, true], [60_000, false]], at: 60_000, calls_: 1, failures: 0 },
  { name: 'the ring wraps: slots are reused for later slices', windowMs: 1000, calls: [[0, true], [1000, false], [2050, true]], at: 2050, calls_: 1, failures: 1 },
  { name: 'partly expired after a wrap', windowMs: 1000, calls: [[900, true], [1000, false], [1850, true]], at: 1950, calls_: 2, failures: 1 },
  { name: 'a clock that goes back counts into the newest slice', windowMs: 1000, calls: [[500, true], [200, false]], at: 500, calls_: 2, failures: 1 },
  { name: 'a window shorter than its slices still moves', windowMs: 5, calls: [[0, true], [3, true]], at: 4, calls_: 2, failures: 2 },
  { name: 'a window shorter than its slices: 1 ms slices', windowMs: 5, calls: [[0, true], [3, true]], at: 10, calls_: 0, failures: 0 },
  { name: '30 s default: 3 s slices', windowMs: 30_000, calls: [[1_000, true], [2_999, true], [3_000, false]], at: 30_000, calls_: 1, failures: 0 },
];

for (const c of CASES) {
  t.test(c.name, async (t) => {
    const w = new RollingWindow(c.windowMs);
    for (const [at, failed] of c.calls) w.record(failed, at);
    w.advance(c.at);
    t.equal(w.callCount, c.calls_, 'calls');
    t.equal(w.failureCount, c.failures, 'failures');
    t.equal(w.allFailed, c.calls_ > 0 && c.calls_ === c.failures, 'allFailed');
  });
}

t.test('totals match a brute-force count over a long random run', async (t) => {
  const windowMs = 1000;
  const w = new RollingWindow(windowMs);
  const log: Call[] = [];
  let now = 0;
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 5000; i++) {
    now += Math.floor(random() * 60);
    const failed = random() < 0.4;
    w.record(failed, now);
    log.push([now, failed]);
    // A call counts while its slice is one of the newest ten.
    const oldest = (Math.floor(now / 100) - 9) * 100;
    const live = log.filter(([at]) => at >= oldest);
    if (w.callCount !== live.length || w.failureCount !== live.filter(([, f]) => f).length) {
      t.fail(`at ${now}: ${w.callCount}/${w.failureCount} vs ${live.length}/${live.filter(([, f]) => f).length}`);
      return;
    }
  }
  t.pass('5000 calls counted right');
});

t.test('reset forgets every call', async (t) => {
  const w = new RollingWindow(1000);
  w.record(true, 10);
  w.record(false, 20);
  w.reset();
  t.equal(w.callCount, 0);
  t.equal(w.failureCount, 0);
  w.record(true, 30);
  t.equal(w.callCount, 1, 'the slot is reused after a reset');
});
