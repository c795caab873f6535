// Every response carries the gateway's request id, under both names clients look for.
import type { Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';

export function requestIdStage(rt: Runtime): Stage {
  const simulated = rt.simulated;
  return (ctx, next) => {
    const { headers } = ctx;
    headers['x-request-id'] = ctx.id;
    headers['request-id'] = ctx.id;
    if (simulated) headers['x-gateway-upstream'] = 'simulator';
    return next(ctx);
  };
}
