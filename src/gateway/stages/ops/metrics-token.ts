// GATEWAY_METRICS_TOKEN: a scrape must bring the token as a bearer credential. The exposition names
// customers, models and traffic volumes, which an operator may not want readable by whoever reaches
// the port.
import { secretEquals } from '../../../lib/secret-equal.js';
import { GatewayError } from '../../../dialects/errors/codes.js';
import type { Stage } from '../../compose.js';
import { credentialOf } from '../auth.js';

/** RFC 6750: a 401 names the scheme to use, so Prometheus's and curl's users see what is wanted. */
const CHALLENGE = Object.freeze({ 'www-authenticate': 'Bearer realm="metrics"' });

export function metricsTokenStage(token: string): Stage {
  return (ctx, next) => {
    const presented = credentialOf(ctx.req.headers.authorization, undefined);
    // Compared in constant time; the presented value is never echoed or logged.
    if (presented !== undefined && secretEquals(presented, token)) return next(ctx);
    throw new GatewayError('unauthenticated', 'GET /metrics needs "Authorization: Bearer <metrics token>".', { headers: { ...CHALLENGE } });
  };
}
