// The messages surface sends the client's bytes upstream exactly as they came, to the same path
// with the same query string; only credentials and hop-by-hop headers change.
import type { Stage } from '../../pipeline/compose.js';
import type { Runtime } from '../../runtime.js';
import { forwardedRequestHeaders } from '../../upstream/headers.js';

export function prepareForwardStage(rt: Runtime, upstreamPath: string): Stage {
  const key = rt.upstreamKey;
  return (ctx, next) => {
    ctx.upstreamRequest = {
      method: 'POST',
      path: upstreamPath + ctx.query,
      headers: forwardedRequestHeaders(ctx.req.headers, key),
      body: ctx.body ?? Buffer.alloc(0),
    };
    return next(ctx);
  };
}
