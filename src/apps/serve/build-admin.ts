// The composition root's admin part: the dashboard's services (password hashing, sessions, the
// sign-in throttle, counted over the fleet when the instances share Redis) are built here, then the
// dashboard's routes over them.
import type { DashboardDeps } from '../../admin/routes.js';
import { dashboardRoutes, type DashboardServices } from '../../admin/routes.js';
import { FleetSignInThrottle } from '../../admin/auth/fleet-sign-in-throttle.js';
import { PasswordHasher } from '../../admin/auth/passwords.js';
import { DEFAULT_SESSION_TIMES, SessionStore } from '../../admin/auth/session-store.js';
import type { AttemptThrottle } from '../../admin/auth/sign-in-attempt.js';
import { SignInThrottle, type SignInThrottleOptions } from '../../admin/auth/throttle.js';
import type { HttpRoute } from '../../gateway/routes.js';
import type { Runtime } from '../../gateway/runtime.js';
import { errorMessage } from '../../lib/error-message.js';
import { customerLimitsLookup } from '../../policy/ratelimit/request-limits.js';

export function buildDashboard(rt: Runtime, deps: DashboardDeps): HttpRoute[] {
  return dashboardRoutes(rt, deps, dashboardServices(rt, deps));
}

export function dashboardServices(rt: Runtime, deps: DashboardDeps): DashboardServices {
  return {
    passwords: new PasswordHasher(deps.passwordCost),
    sessions: new SessionStore(deps.stores.sessions, deps.sessionTimes ?? DEFAULT_SESSION_TIMES),
    attempts: { throttle: signInThrottle(rt, deps.throttle), trustedProxies: rt.config.rateLimits.trustedProxies },
    customerDefaults: customerLimitsLookup(rt.config.rateLimits.customers),
  };
}

/** This process's count, also kept over the fleet when the instances share Redis. */
function signInThrottle(rt: Runtime, options: SignInThrottleOptions | undefined): AttemptThrottle {
  const local = new SignInThrottle(options);
  const fleet = rt.fleetStore ?? null;
  if (fleet === null) return local;
  return new FleetSignInThrottle(local, fleet.redis, {
    prefix: fleet.prefix,
    onError: (err) => rt.logger.error({ err: errorMessage(err) }, 'counting a sign-in attempt in Redis failed'),
  });
}
