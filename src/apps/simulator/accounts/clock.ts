// The simulator's time: rate-limit windows, prompt-cache lifetimes, access-token expiry and the
// reset times it reports all read it. It follows a base clock (the wall clock unless a test injects
// one) plus however far it was advanced, so a test moves a minute ahead without waiting for one.
export class SimClock {
  private offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  /** Milliseconds since the epoch, as the simulator sees it. */
  now(): number {
    return this.base() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
