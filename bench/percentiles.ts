// Exact percentiles over recorded samples (autocannon's own histogram rounds to whole milliseconds,
// too coarse for sub-millisecond overheads).

export class Samples {
  private store = new Float64Array(1024);
  private count = 0;

  add(value: number): void {
    if (this.count === this.store.length) {
      const grown = new Float64Array(this.store.length * 2);
      grown.set(this.store);
      this.store = grown;
    }
    this.store[this.count++] = value;
  }

  addAll(other: Samples): void {
    for (let i = 0; i < other.count; i++) this.add(other.store[i]!);
  }

  get size(): number {
    return this.count;
  }

  /** The samples in the order they were added (a view, not a copy). */
  values(): Float64Array {
    return this.store.subarray(0, this.count);
  }

  /** Sorted copy; callers ask several percentiles of one sort. */
  summary(): Summary {
    const sorted = this.store.slice(0, this.count).sort();
    return summarize(sorted);
  }
}

export interface Summary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

function summarize(sorted: Float64Array): Summary {
  const n = sorted.length;
  if (n === 0) return { count: 0, p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
  let total = 0;
  for (let i = 0; i < n; i++) total += sorted[i]!;
  return { count: n, p50: at(sorted, 50), p90: at(sorted, 90), p99: at(sorted, 99), max: sorted[n - 1]!, mean: total / n };
}

function at(sorted: Float64Array, p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
