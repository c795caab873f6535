// Parses the body as a JSON object (src/lib/json/json-object.ts holds the checks).
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';
import { parseJsonObject } from '../../lib/json/json-object.js';

export function parseJsonStage(rt: Runtime): Stage {
  const maxDepth = rt.config.limits.jsonDepth;
  return (ctx, next) => {
    const parsed = parseJsonObject(ctx.body, maxDepth);
    if (!parsed.ok) throw new GatewayError('invalid_request', parsed.message, { param: parsed.param });
    ctx.json = parsed.value;
    return next(ctx);
  };
}
