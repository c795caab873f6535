// A large chat body costs two long synchronous steps on the main thread: parsing (with the depth
// check), then translating and serialising the provider body. Run back to back they block the event
// loop for their sum (~5 ms for 1 MiB); with one turn of the loop between them, other requests wait
// for at most the longer of the two. Bodies below the threshold (the translation pool's, 256 KiB by
// default) go straight on: for them the extra turn would cost more than it saves.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';

export function yieldLargeBodyStage(rt: Runtime): Stage {
  const minBytes = rt.config.translatePool.minBytes;
  return (ctx, next) => {
    if (ctx.body === null || ctx.body.length < minBytes) return next(ctx);
    return nextTurn().then(() => next(ctx));
  };
}
