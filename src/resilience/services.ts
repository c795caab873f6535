// The long-lived resilience services of one gateway process: the circuit breakers of the model
// routes, the resilient caller, the rate limiter and the failed-authentication throttle. Built once per runtime
// on first use, so every route and /readyz share the same instances.
import { clusterLimits } from '../cluster/limits-channel.js';
import { AuthThrottle } from '../ratelimit/auth-throttle.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { MemoryRateLimiter } from '../ratelimit/memory-limiter.js';
import type { Runtime } from '../runtime.js';
import { ResilientCaller } from './resilient-call.js';
import { RetryPolicy } from './retry-policy.js';
import { RouteBreakers } from './route-breakers.js';

export interface ResilienceServices {
  readonly breakers: RouteBreakers;
  readonly caller: ResilientCaller;
  readonly limiter: RateLimiter;
  /** null when GATEWAY_AUTH_FAILURES_PER_MINUTE is 0. */
  readonly authThrottle: AuthThrottle | null;
}

const byRuntime = new WeakMap<Runtime, ResilienceServices>();

export function resilienceOf(rt: Runtime): ResilienceServices {
  let services = byRuntime.get(rt);
  if (services === undefined) {
    services = build(rt);
    byRuntime.set(rt, services);
  }
  return services;
}

function build(rt: Runtime): ResilienceServices {
  const { config, metrics, logger } = rt;
  const breakers = new RouteBreakers(config.breaker, (route, state, previous) => {
    metrics.circuitState(route, state);
    // A route's breaker is made, closed, by its first request: that is no news.
    if (previous !== null) logger.warn({ route, state, previous }, 'the circuit breaker of a model route changed state');
  });
  const caller = new ResilientCaller(rt.upstream, new RetryPolicy(config.retry), breakers, rt.catalogue, {
    retry: (reason) => metrics.retry(reason),
    upstreamError: (kind) => metrics.upstreamError(kind),
    fallback: (from, to, status) => logger.info({ from, to, upstreamStatus: status }, 'falling back to another model'),
  });
  const perMinute = config.rateLimits.authFailuresPerMinute;
  // A worker of serve --workers counts against the primary's buckets, not its own.
  if (rt.limitsInPrimary === true) return { breakers, caller, ...clusterLimits(perMinute, logger) };
  return {
    breakers,
    caller,
    limiter: new MemoryRateLimiter(),
    authThrottle: perMinute > 0 ? new AuthThrottle(perMinute) : null,
  };
}
