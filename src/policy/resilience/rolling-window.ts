// Calls and failures of the last `windowMs`, kept in a ring of equal slices so that recording a call
// and reading the totals cost O(1) and allocate nothing. The window moves a slice at a time: a call
// leaves the totals between windowMs - sliceMs and windowMs after it was recorded.

/** Slices per window: the window's edge is exact to a tenth of its length. */
export const WINDOW_SLICES = 10;

export class RollingWindow {
  readonly sliceMs: number;
  private readonly calls: Uint32Array;
  private readonly failed: Uint32Array;
  /** The absolute number (time / sliceMs) of the newest slice; -1 before the first call. */
  private newest = -1;
  private callTotal = 0;
  private failureTotal = 0;

  constructor(windowMs: number, slices: number = WINDOW_SLICES) {
    // Whole milliseconds per slice, so a window shorter than `slices` ms gets fewer slices, not a longer span.
    const count = Math.max(1, Math.min(slices, Math.floor(windowMs)));
    this.sliceMs = Math.max(1, Math.ceil(windowMs / count));
    this.calls = new Uint32Array(count);
    this.failed = new Uint32Array(count);
  }

  /** Calls recorded in the window that ends at the last `advance` or `record`. */
  get callCount(): number {
    return this.callTotal;
  }

  get failureCount(): number {
    return this.failureTotal;
  }

  /** At least one call, and every one failed. */
  get allFailed(): boolean {
    return this.callTotal > 0 && this.failureTotal === this.callTotal;
  }

  record(failed: boolean, now: number): void {
    const slot = this.advance(now);
    this.calls[slot]++;
    this.callTotal++;
    if (failed) {
      this.failed[slot]++;
      this.failureTotal++;
    }
  }

  /** Moves the window's end to `now`, dropping the slices that fell out; returns the current slot. */
  advance(now: number): number {
    const size = this.calls.length;
    const current = Math.max(0, Math.floor(now / this.sliceMs));
    // A clock that went back (it should not) counts into the newest slice.
    if (current <= this.newest) return this.newest % size;
    const stale = Math.min(current - this.newest, size);
    for (let n = current - stale + 1; n <= current; n++) this.clearSlot(n % size);
    this.newest = current;
    return current % size;
  }

  reset(): void {
    this.calls.fill(0);
    this.failed.fill(0);
    this.callTotal = 0;
    this.failureTotal = 0;
  }

  private clearSlot(slot: number): void {
    this.callTotal -= this.calls[slot];
    this.failureTotal -= this.failed[slot];
    this.calls[slot] = 0;
    this.failed[slot] = 0;
  }
}
