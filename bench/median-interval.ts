// How far the median of a few rounds can be trusted: the interval between two order statistics that
// holds the true median with a known probability, whatever the distribution of the rounds (each
// round falls below the median with probability 1/2, so how many do is binomial). A verdict against a
// goal is given only when the whole interval is on one side of it: on a shared machine a round's
// CPU per request moves by several per cent, far more than a few microseconds, and a median alone
// would read that noise as a result.

export interface MedianInterval {
  low: number;
  high: number;
  /** The probability that the interval holds the median (below the one asked when there are too few rounds). */
  coverage: number;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function binomialAtMost(n: number, k: number): number {
  let term = 0.5 ** n;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/** The narrowest [x(k), x(n-k+1)] that holds the median with at least `confidence` (else [min, max]). */
export function medianInterval(values: readonly number[], confidence = 0.95): MedianInterval {
  if (values.length === 0) throw new Error('no values');
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  let k = 1;
  while (k + 1 <= (n + 1) / 2 && 1 - 2 * binomialAtMost(n, k) >= confidence) k++;
  return { low: sorted[k - 1]!, high: sorted[n - k]!, coverage: 1 - 2 * binomialAtMost(n, k - 1) };
}

/** Whether the interval is under the goal (met), over it (missed) or straddles it. */
export function verdictAgainst(interval: MedianInterval, goal: number): 'met' | 'missed' | 'not resolved' {
  if (interval.high <= goal) return 'met';
  if (interval.low > goal) return 'missed';
  return 'not resolved';
}
