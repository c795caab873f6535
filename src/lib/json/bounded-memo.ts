// A memo for a string → string function whose inputs may come from clients (model names, member
// names): bounded by the bytes its entries hold, not by their number, because a count bound still lets
// a few hundred multi-megabyte inputs pin gigabytes. When the budget is spent the memo is emptied
// whole: the handful of values that repeat on every request come back after one call each, which
// keeps the hit path a single Map lookup (an LRU would reorder on every hit).

/** Bytes a memo may hold unless told otherwise. */
export const DEFAULT_MEMO_BYTES = 128 * 1024;

/** An entry bigger than this share of the budget is computed every time and never kept. */
const MIN_ENTRIES = 32;

/** A Map entry and two string headers, roughly, on a 64-bit V8. */
const ENTRY_OVERHEAD_BYTES = 64;

/** What a string may occupy: V8 stores two bytes a character once one character needs them. */
export function stringBytes(s: string): number {
  return 2 * s.length;
}

export class BoundedMemo {
  private readonly entries = new Map<string, string>();
  private held = 0;

  constructor(
    private readonly compute: (input: string) => string,
    private readonly maxBytes = DEFAULT_MEMO_BYTES,
  ) {}

  get(input: string): string {
    let value = this.entries.get(input);
    if (value === undefined) {
      value = this.compute(input);
      this.keep(input, value);
    }
    return value;
  }

  /** Bytes held now, by the estimate above (never more than the budget). */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(input: string, value: string): void {
    const cost = stringBytes(input) + stringBytes(value) + ENTRY_OVERHEAD_BYTES;
    if (cost > this.maxBytes / MIN_ENTRIES) return;
    if (this.held + cost > this.maxBytes) {
      this.entries.clear();
      this.held = 0;
    }
    this.entries.set(input, value);
    this.held += cost;
  }
}
