// Refuses a request whose `messages` array is longer than the configured maximum, before anything
// walks it (translation, token estimates, the upstream).
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Stage } from '../compose.js';
import { parsedBody } from '../context.js';
import type { Runtime } from '../runtime.js';

export function limitMessagesStage(rt: Runtime): Stage {
  const max = rt.config.limits.maxMessages;
  return (ctx, next) => {
    const messages = parsedBody(ctx).messages;
    if (Array.isArray(messages) && messages.length > max) {
      throw new GatewayError('invalid_request', `messages: at most ${max} messages are accepted, got ${messages.length}.`, { param: 'messages' });
    }
    return next(ctx);
  };
}
