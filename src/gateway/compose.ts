// The onion composer: a route's stages are joined once at start-up into one function. Each stage
// gets the rest of the chain as a function built here, so a request allocates no `next` closures.
import type { RequestContext } from './context.js';

export type Next = (ctx: RequestContext) => Promise<void>;
export type Stage = (ctx: RequestContext, next: Next) => Promise<void>;
export type Handler = (ctx: RequestContext) => Promise<void>;

const done: Next = () => Promise.resolve();

export function compose(stages: readonly Stage[]): Handler {
  let chain: Handler = done;
  for (let i = stages.length - 1; i >= 0; i--) chain = link(stages[i]!, chain);
  return chain;
}

function link(stage: Stage, next: Next): Handler {
  return (ctx) => {
    try {
      return stage(ctx, next);
    } catch (err) {
      return Promise.reject(err);
    }
  };
}
