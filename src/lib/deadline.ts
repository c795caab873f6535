// A deadline on a promise whose own timeouts cannot be relied on (a store behind a silent network).

export class DeadlineError extends Error {
  override name = 'DeadlineError';
  constructor(what: string, ms: number) {
    super(`${what}: no answer within ${ms} ms`);
  }
}

/** Rejects with DeadlineError after `ms`; the late outcome of `promise` is ignored (never unhandled). */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, ms)), ms);
  });
  promise.catch(() => {});
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
