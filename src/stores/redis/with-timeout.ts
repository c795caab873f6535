// A deadline on a promise. node-redis's own command timeout only covers the wait before a command
// is written to the socket; once sent, a silent network would hold it forever.

export class CommandTimeoutError extends Error {
  constructor(ms: number) {
    super(`redis command timed out after ${ms} ms`);
    this.name = 'CommandTimeoutError';
  }
}

/**
 * The deadline measures Redis, not this process's own busy event loop (a burst of requests, a loaded
 * host): taken for a silent Redis, a busy loop would open the breaker and make every instance fall back
 * to its share of the limits. So the clock starts in the check phase, after node-redis has written the
 * commands queued so far (it writes them from a setImmediate queued when the command was sent, so before
 * this one), and the rejection waits for the next check phase, after the loop has read its sockets: a
 * reply that arrived while the loop was blocked is taken, not refused.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let immediate: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    immediate = setImmediate(() => {
      timer = setTimeout(() => {
        immediate = setImmediate(() => reject(new CommandTimeoutError(ms)));
      }, ms);
    });
  });
  // The late outcome of a command that lost the race is of no interest, but must not go unhandled.
  promise.catch(() => {});
  return Promise.race([promise, deadline]).finally(() => {
    clearImmediate(immediate);
    clearTimeout(timer);
  });
}
