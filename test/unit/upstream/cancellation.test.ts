// Cancellation: a flag, one hook, and an AbortSignal made only when something asks for one.
import t from 'tap';
import { Cancellation } from '../../../src/upstream/cancellation.js';

function counter(): { cancel(): void; runs: number } {
  return {
    runs: 0,
    cancel() {
      this.runs++;
    },
  };
}

interface Case {
  name: string;
  run(c: Cancellation, a: ReturnType<typeof counter>, b: ReturnType<typeof counter>): void;
  /** How many times each hook ran, and the flag afterwards. */
  expect: { a: number; b: number; cancelled: boolean };
}

const cases: Case[] = [
  { name: 'nothing happens until cancel', run: (c, a) => c.onCancel(a), expect: { a: 0, b: 0, cancelled: false } },
  { name: 'the hook runs on cancel', run: (c, a) => (c.onCancel(a), c.cancel()), expect: { a: 1, b: 0, cancelled: true } },
  { name: 'a second cancel does not run the hook again', run: (c, a) => (c.onCancel(a), c.cancel(), c.cancel()), expect: { a: 1, b: 0, cancelled: true } },
  { name: 'a hook registered after cancel runs at once', run: (c, a) => (c.cancel(), c.onCancel(a)), expect: { a: 1, b: 0, cancelled: true } },
  { name: 'a cleared hook does not run', run: (c, a) => (c.onCancel(a), c.onCancel(null), c.cancel()), expect: { a: 0, b: 0, cancelled: true } },
  { name: 'only the last hook runs (one thing in flight)', run: (c, a, b) => (c.onCancel(a), c.onCancel(b), c.cancel()), expect: { a: 0, b: 1, cancelled: true } },
  { name: 'a hook that ran is dropped: registering it again after cancel runs it again', run: (c, a) => (c.onCancel(a), c.cancel(), c.onCancel(a)), expect: { a: 2, b: 0, cancelled: true } },
  { name: 'clearing after cancel is harmless', run: (c, a) => (c.onCancel(a), c.cancel(), c.onCancel(null)), expect: { a: 1, b: 0, cancelled: true } },
];

t.test('the hook and the flag', async (t) => {
  for (const { name, run, expect } of cases) {
    const c = new Cancellation();
    const a = counter();
    const b = counter();
    run(c, a, b);
    t.same({ a: a.runs, b: b.runs, cancelled: c.cancelled }, expect, name);
  }
});

t.test('the signal is made lazily and follows the flag', async (t) => {
  const early = new Cancellation();
  const signal = early.signal;
  t.equal(signal.aborted, false, 'a signal asked for before cancel is live');
  t.equal(early.signal, signal, 'the same signal each time');
  let aborts = 0;
  signal.addEventListener('abort', () => aborts++);
  early.cancel();
  early.cancel();
  t.equal(signal.aborted, true, 'cancel aborts it');
  t.equal(aborts, 1, 'once');

  const late = new Cancellation();
  late.cancel();
  t.equal(late.signal.aborted, true, 'a signal first asked for after cancel is already aborted');
});

t.test('a hook that cancels re-entrantly runs once', async (t) => {
  const c = new Cancellation();
  let runs = 0;
  c.onCancel({
    cancel() {
      runs++;
      c.cancel();
    },
  });
  c.cancel();
  t.equal(runs, 1);
});
