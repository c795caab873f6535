// The long-lived resilience services of one gateway process: the upstream's circuit breaker, the
// resilient caller, the rate limiter and the failed-authentication throttle. Built once per runtime
// on first use, so every route and /readyz share the same instances.
import { clusterLimits } from '../cluster/limits-channel.js';
import { AuthThrottle } from '../ratelimit/auth-throttle.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { MemoryRateLimiter } from '../ratelimit/memory-limiter.js';
import type { Runtime } from '../runtime.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { ResilientCaller } from './resilient-call.js';
import { RetryPolicy } from './retry-policy.js';

/** The metrics label and /readyz name of the one upstream. */
export const UPSTREAM_NAME = 'anthropic';

export interface ResilienceServices {
  readonly breaker: CircuitBreaker;
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
  let built = false;
  const breaker = new CircuitBreaker(UPSTREAM_NAME, config.breaker, (name, state) => {
    metrics.circuitState(name, state);
    if (built) logger.warn({ upstream: name, state }, 'upstream circuit breaker changed state');
  });
  const caller = new ResilientCaller(rt.upstream, new RetryPolicy(config.retry), breaker, rt.catalogue, {
    retry: (reason) => metrics.retry(reason),
    upstreamError: (kind) => metrics.upstreamError(kind),
    fallback: (from, to, status) => logger.info({ from, to, upstreamStatus: status }, 'falling back to another model'),
  });
  const perMinute = config.rateLimits.authFailuresPerMinute;
  built = true;
  // A worker of serve --workers counts against the primary's buckets, not its own.
  if (rt.limitsInPrimary === true) return { breaker, caller, ...clusterLimits(perMinute, logger) };
  return {
    breaker,
    caller,
    limiter: new MemoryRateLimiter(),
    authThrottle: perMinute > 0 ? new AuthThrottle(perMinute) : null,
  };
}
