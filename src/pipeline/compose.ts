// The onion composer: a route's stages are joined once at start-up into one function.
import type { RequestContext } from '../context.js';

export type Next = () => Promise<void>;
export type Stage = (ctx: RequestContext, next: Next) => Promise<void>;
export type Handler = (ctx: RequestContext) => Promise<void>;

const done: Next = () => Promise.resolve();

export function compose(stages: readonly Stage[]): Handler {
  const chain = stages.slice();
  return function run(ctx: RequestContext): Promise<void> {
    let last = -1;
    const dispatch = (i: number): Promise<void> => {
      // A stage that calls next() twice would run everything after it twice.
      if (i <= last) return Promise.reject(new Error('next() called more than once'));
      last = i;
      const stage = chain[i];
      if (stage === undefined) return done();
      try {
        return stage(ctx, () => dispatch(i + 1));
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return dispatch(0);
  };
}
