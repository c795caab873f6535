// The life of one response: timers and waits that end the moment the client goes away (or the
// simulator closes the socket), so nothing keeps generating into a closed connection.
import type { ServerResponse } from 'node:http';

export class ResponseScope {
  private open = true;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Set<() => void>();

  constructor(private readonly res: ServerResponse) {
    res.once('close', () => this.end());
  }

  get closed(): boolean {
    return !this.open;
  }

  private end(): void {
    if (!this.open) return;
    this.open = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Resolves true after `ms`, or false as soon as the response closes. */
  sleep(ms: number): Promise<boolean> {
    if (!this.open) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => resolve(false);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.waiters.delete(wake);
        resolve(true);
      }, ms);
      this.timers.add(timer);
      this.waiters.add(wake);
    });
  }

  /** Resolves true when the socket can take more, false if the response closed first. */
  drained(): Promise<boolean> {
    if (!this.open) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onDrain = (): void => {
        this.waiters.delete(wake);
        resolve(true);
      };
      const wake = (): void => {
        this.res.off('drain', onDrain);
        resolve(false);
      };
      this.res.once('drain', onDrain);
      this.waiters.add(wake);
    });
  }

  /** Waits until the response closes: a hang or a stall that only the client (or close()) ends. */
  untilClosed(): Promise<void> {
    if (!this.open) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add(resolve));
  }
}
