// Refuses a request whose conversation (`messages`, or the Responses surface's `input` items) is longer
// than the configured maximum, before anything walks it (translation, token estimates, the upstream).
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Stage } from '../compose.js';
import { parsedBody } from '../context.js';
import type { Runtime } from '../runtime.js';

export function limitMessagesStage(rt: Runtime, field: 'messages' | 'input'): Stage {
  const max = rt.config.limits.maxMessages;
  return (ctx, next) => {
    const messages = parsedBody(ctx)[field];
    if (Array.isArray(messages) && messages.length > max) {
      throw new GatewayError('invalid_request', `${field}: at most ${max} ${field === 'input' ? 'items' : 'messages'} are accepted, got ${messages.length}.`, { param: field });
    }
    return next(ctx);
  };
}
