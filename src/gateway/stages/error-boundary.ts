// Turns anything a later stage throws into an answer in the route's own error shape. A database that did not
// answer (the dashboard's and the admin API's store calls) is 503 with retry-after: nothing the client did.
import { GatewayError } from '../../dialects/errors/codes.js';
import { renderError } from '../../dialects/errors/render.js';
import { endJson } from '../../lib/json-response.js';
import type { Stage } from '../compose.js';
import type { Runtime } from '../runtime.js';
import type { RequestContext } from '../context.js';
import { StoreUnavailableError } from '../../stores/errors.js';

/** Seconds a client is asked to wait when the database did not answer. */
const STORE_RETRY_AFTER_S = '5';

export function errorBoundaryStage(rt: Runtime): Stage {
  return async (ctx, next) => {
    try {
      await next(ctx);
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        rt.logger.warn({ reqId: ctx.id, err: err.message }, 'the database did not answer; answered 503');
        sendError(ctx, new GatewayError('overloaded', 'The database is not answering; retry shortly.', { headers: { 'retry-after': STORE_RETRY_AFTER_S } }));
        return;
      }
      const gatewayError = err instanceof GatewayError ? err : null;
      if (gatewayError === null) rt.logger.error({ reqId: ctx.id, err: describe(err) }, 'unhandled error in request pipeline');
      sendError(ctx, gatewayError ?? new GatewayError('internal', 'The gateway failed to handle this request.'));
    }
  };
}

export function sendError(ctx: RequestContext, err: GatewayError): void {
  const { res } = ctx;
  if (ctx.outcome === null) ctx.outcome = err.status >= 500 ? 'upstream_error' : 'client_error';
  if (res.headersSent) {
    // The stream stages write their own final error event; here only a torn response is left.
    res.destroy();
    return;
  }
  if (res.destroyed) return;
  const body = renderError(ctx.route.errorFormat, err.code, err.message, err.param);
  if (err.headers) Object.assign(ctx.headers, err.headers);
  endJson(res, err.status, body, ctx.headers);
}

function describe(err: unknown): { message: string; stack?: string } {
  return err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) };
}
