// A deadline on a promise. node-redis's own command timeout only covers the wait before a command
// is written to the socket; once sent, a silent network would hold it forever.

export class CommandTimeoutError extends Error {
  constructor(ms: number) {
    super(`redis command timed out after ${ms} ms`);
    this.name = 'CommandTimeoutError';
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CommandTimeoutError(ms)), ms);
  });
  // The late outcome of a command that lost the race is of no interest, but must not go unhandled.
  promise.catch(() => {});
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
