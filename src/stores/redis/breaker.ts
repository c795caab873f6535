// A consecutive-failure breaker: after `threshold` failures in a row the store is treated as down
// and nobody waits on it; a background probe (owned by the caller) closes it again.

export class Breaker {
  private failures = 0;
  private opened = false;

  constructor(
    private readonly threshold: number,
    private readonly onChange: (closed: boolean) => void,
  ) {}

  get closed(): boolean {
    return !this.opened;
  }

  success(): void {
    this.failures = 0;
    if (this.opened) {
      this.opened = false;
      this.onChange(true);
    }
  }

  failure(): void {
    if (++this.failures >= this.threshold) this.open();
  }

  /** Opens at once (a lost connection needs no further evidence). */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.onChange(false);
  }
}
