// Finds the requested model in the catalogue and checks the key may use it, before any upstream call.
import { GatewayError } from '../../dialects/errors/codes.js';
import { clipText } from '../../lib/json/clip-text.js';
import { mayUseModel } from '../../keys/principal.js';
import type { Stage } from '../compose.js';
import { parsedBody } from '../context.js';
import type { Runtime } from '../runtime.js';

const ECHOED_NAME_CHARS = 100;

export function resolveModelStage(rt: Runtime): Stage {
  const { catalogue } = rt;
  return (ctx, next) => {
    const body = parsedBody(ctx);
    const name = body.model;
    if (typeof name !== 'string' || name === '') {
      throw new GatewayError('invalid_request', 'model: a model id (string) is required.', { param: 'model' });
    }
    ctx.requestedModel = name;
    const stream = body.stream;
    if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
      throw new GatewayError('invalid_request', 'stream: must be a boolean.', { param: 'stream' });
    }
    ctx.stream = stream === true;
    const model = catalogue.resolve(name);
    if (model === null) {
      // The name is echoed to its own sender only; kept short and on one line.
      const echoed = clipText(name, ECHOED_NAME_CHARS).replace(/[\r\n]/g, ' ');
      throw new GatewayError('model_not_found', `The model "${echoed}" does not exist or is not served by this gateway.`, { param: 'model' });
    }
    if (!mayUseModel(ctx.principal, model.id)) {
      throw new GatewayError('model_not_allowed', `This API key may not use the model "${model.id}".`, { param: 'model' });
    }
    ctx.model = model;
    return next(ctx);
  };
}
