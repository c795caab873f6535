// Parses the body as a JSON object. Keys such as __proto__ stay plain data: JSON.parse defines own
// properties and never walks the prototype chain.
import { GatewayError } from '../errors/codes.js';
import type { Stage } from '../pipeline/compose.js';
import type { Runtime } from '../runtime.js';
import { exceedsJsonDepth } from '../validate/json-depth.js';

export function parseJsonStage(rt: Runtime): Stage {
  const maxDepth = rt.config.limits.jsonDepth;
  return (ctx, next) => {
    const body = ctx.body;
    if (body === null || body.length === 0) throw new GatewayError('invalid_request', 'The request body is empty; a JSON object is required.');
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new GatewayError('invalid_request', 'The request body is not valid JSON.');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
    }
    if (exceedsJsonDepth(parsed, maxDepth)) {
      throw new GatewayError('invalid_request', `The request body is nested deeper than ${maxDepth} levels.`);
    }
    ctx.json = parsed;
    return next();
  };
}
