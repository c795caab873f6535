// "The client went away": a flag and one hook, set by whatever is in flight for the request (the
// upstream exchange, a stream relay). An AbortController per request, with undici's listener on
// its signal, cost ~10 µs of CPU per request in the bench profile; this costs an object. APIs that
// need a real AbortSignal (timers, events.once) get one made on demand.
/** What is in flight for the request and can be stopped. */
export interface Cancellable {
  cancel(): void;
}

export class Cancellation {
  private isCancelled = false;
  private hook: Cancellable | null = null;
  private controller: AbortController | null = null;

  get cancelled(): boolean {
    return this.isCancelled;
  }

  /** A signal that aborts on cancel; made the first time it is asked for. */
  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.isCancelled) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** The one thing to stop on cancel (null to clear). Runs at once when already cancelled. */
  onCancel(hook: Cancellable | null): void {
    this.hook = hook;
    if (hook !== null && this.isCancelled) hook.cancel();
  }

  cancel(): void {
    if (this.isCancelled) return;
    this.isCancelled = true;
    const hook = this.hook;
    this.hook = null;
    if (hook !== null) hook.cancel();
    this.controller?.abort();
  }
}
