// The interval of a median of rounds, and the verdict it allows against a goal.
import t from 'tap';
import { medianInterval, verdictAgainst } from '../../bench/median-interval.js';

t.test('the order statistics that hold the median with at least the confidence asked', async (t) => {
  t.same(medianInterval([3, 1, 2, 5, 4, 6]), { low: 1, high: 6, coverage: 1 - 2 / 64 }, 'six rounds: only the whole range reaches 95 %');
  t.same(medianInterval([4, 1, 3, 2]), { low: 1, high: 4, coverage: 1 - 2 / 16 }, 'four rounds: the whole range, at 87.5 %');
  const twenty = Array.from({ length: 20 }, (_, i) => 20 - i);
  const i20 = medianInterval(twenty);
  // Binomial(20, 1/2): P(X ≤ 5) = 0.0207, P(X ≤ 6) = 0.0577, so the 6th and 15th values (95.9 %).
  t.same([i20.low, i20.high], [6, 15]);
  t.ok(Math.abs(i20.coverage - (1 - 2 * 0.020695)) < 1e-5, `coverage ${i20.coverage}`);
  t.same(medianInterval([7]), { low: 7, high: 7, coverage: 0 }, 'one round: no interval worth the name');
  t.throws(() => medianInterval([]));
});

t.test('a verdict only when the whole interval is on one side of the goal', async (t) => {
  t.equal(verdictAgainst({ low: -3, high: 4, coverage: 0.95 }, 5), 'met');
  t.equal(verdictAgainst({ low: 6, high: 30, coverage: 0.95 }, 5), 'missed');
  t.equal(verdictAgainst({ low: -40, high: 60, coverage: 0.95 }, 5), 'not resolved');
});
