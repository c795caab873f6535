// The switch both fleet-wide counters use (rate limits, spend budgets): ask Redis while it answers,
// decide in this instance otherwise. While the store is known to be down no round trip is tried; a
// failed call falls back for that decision. The switch to local and back is reported once each way,
// never per request.
import { errorMessage } from '../../lib/error-message.js';

export interface SharedStoreState {
  readonly up: boolean;
}

export type SwitchEvent = 'fallback' | 'resumed';

export class SharedOrLocal {
  private inFallback = false;

  constructor(
    private readonly store: SharedStoreState,
    private readonly report: (event: SwitchEvent, reason: string) => void = () => {},
  ) {}

  decide<T>(shared: () => T | Promise<T>, local: () => T | Promise<T>): T | Promise<T> {
    if (!this.store.up) return this.fallback(local, 'redis down');
    // A shared decision taken without a round trip (the rate limiter's lease) stays synchronous.
    let decision: T | Promise<T>;
    try {
      decision = shared();
    } catch (err) {
      return this.fallback(local, errorMessage(err));
    }
    if (decision instanceof Promise) return this.viaShared(decision, local);
    this.sharing();
    return decision;
  }

  /** Settles with whichever decided; one owed to Redis is dropped while it is down, and its failure ignored. */
  settle(decidedByShared: boolean, shared: () => void | Promise<void>, local: () => void | Promise<void>): void | Promise<void> {
    if (!decidedByShared) return local();
    if (!this.store.up) return;
    // A settle the shared store only queues (the rate limiter's) answers at once: no promise to make.
    const settled = shared();
    if (settled instanceof Promise) return settled.catch(() => {});
  }

  private async viaShared<T>(pending: Promise<T>, local: () => T | Promise<T>): Promise<T> {
    let decision: T;
    try {
      decision = await pending;
    } catch (err) {
      return this.fallback(local, errorMessage(err));
    }
    this.sharing();
    return decision;
  }

  private sharing(): void {
    if (this.inFallback) {
      this.inFallback = false;
      this.report('resumed', 'redis answering');
    }
  }

  private fallback<T>(local: () => T | Promise<T>, reason: string): T | Promise<T> {
    if (!this.inFallback) {
      this.inFallback = true;
      this.report('fallback', reason);
    }
    return local();
  }
}
