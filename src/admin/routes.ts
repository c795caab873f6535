// The dashboard's routes for the gateway's route table: pages under /dashboard, the JSON API under
// /admin/api. Both share the gateway's request id, access log, metrics and error shape.
import { isStrongEnoughAdminToken, MIN_ADMIN_TOKEN_LENGTH } from '../config/admin-token.js';
import type { Handler, Stage } from '../gateway/compose.js';
import { compose } from '../gateway/compose.js';
import type { HttpRoute } from '../gateway/routes.js';
import type { RateLimits } from '../keys/rate-limits.js';
import type { Runtime } from '../gateway/runtime.js';
import { errorBoundaryStage } from '../gateway/stages/error-boundary.js';
import { observeStage } from '../gateway/stages/observe.js';
import { parseJsonStage } from '../gateway/stages/parse-json.js';
import { readBodyStage } from '../gateway/stages/read-body.js';
import { requestIdStage } from '../gateway/stages/request-id.js';
import { auditRoutes } from './api/audit-handlers.js';
import { customerRoutes } from './api/customer-handlers.js';
import { adminApiStage, API_PREFIX } from './api/dispatch.js';
import { keyRoutes } from './api/key-handlers.js';
import { modelRoutes } from './api/model-handlers.js';
import { overviewRoutes } from './api/overview-handlers.js';
import { passwordRoutes } from './api/password-handlers.js';
import { routeTableRoutes } from './api/route-handlers.js';
import { sessionRoutes } from './api/session-handlers.js';
import { usageRoutes } from './api/usage-handlers.js';
import { userRoutes } from './api/user-handlers.js';
import type { ScryptCost } from './auth/passwords.js';
import type { PasswordHasher } from './auth/passwords.js';
import type { SessionTimes } from './auth/session-store.js';
import type { SessionStore } from './auth/session-store.js';
import type { Stores } from '../stores/stores.js';
import type { AttemptGuard } from './auth/sign-in-attempt.js';
import type { SignInThrottleOptions } from './auth/throttle.js';
import { API_ANSWER_HEADERS } from './http/send.js';
import { DASHBOARD_PREFIX, staticFilesStage } from './http/static-files.js';

export interface DashboardDeps {
  stores: Pick<Stores, 'keys' | 'usage' | 'users' | 'sessions' | 'audit'>;
  adminToken: string;
  sessionTimes?: SessionTimes;
  throttle?: SignInThrottleOptions;
  /** The scrypt cost of new password hashes; the OWASP one unless a test needs speed. */
  passwordCost?: ScryptCost;
}

/** Admin API bodies are small; this also bounds what an unauthenticated sign-in call can make us read. */
const ADMIN_BODY_LIMIT = 64 * 1024;

/** The dashboard's long-lived services, built by the composition root (apps/serve/build-admin.ts). */
export interface DashboardServices {
  passwords: PasswordHasher;
  sessions: SessionStore;
  /** One throttle for sign-ins and bearer tokens alike, and the proxies whose client address is believed. */
  attempts: AttemptGuard;
  customerDefaults: (customerName: string) => RateLimits | null;
}

export function dashboardRoutes(rt: Runtime, deps: Pick<DashboardDeps, 'stores' | 'adminToken'>, services: DashboardServices): HttpRoute[] {
  // The start refuses such a token already; this keeps any other way of mounting the dashboard honest.
  if (!isStrongEnoughAdminToken(deps.adminToken)) throw new Error(`the admin token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
  const { keys: keyStore, usage: usageStore, users, audit } = deps.stores;
  const { passwords, sessions, attempts, customerDefaults } = services;
  const api = adminApiStage(
    [
      ...sessionRoutes({ adminToken: deps.adminToken, keyStore, sessions, users, passwords, audit, ...attempts }),
      ...passwordRoutes({ users, sessions, passwords, audit, ...attempts }),
      ...customerRoutes({ keyStore, keyCache: rt.keys, customerDefaults, usageStore, audit }),
      ...keyRoutes({ keyStore, catalogue: rt.catalogue, keyCache: rt.keys, customerDefaults, usageStore, audit, maxKeysPerCustomer: rt.config.maxKeysPerCustomer }),
      ...usageRoutes(keyStore, usageStore),
      ...userRoutes({ keyStore, users, passwords, audit }),
      ...auditRoutes(keyStore, audit),
      ...modelRoutes(rt.catalogue),
      ...routeTableRoutes(rt.providers, rt.routes, rt.wallClock),
      ...overviewRoutes({ usageStore, providers: rt.providers, routeTable: rt.routes, wallClock: rt.wallClock }),
    ],
    { adminToken: deps.adminToken, sessions, users, ...attempts },
  );
  const front: Stage[] = [requestIdStage(rt), observeStage(rt), errorBoundaryStage(rt)];
  const withBody: Stage[] = [readBodyStage(ADMIN_BODY_LIMIT), parseJsonStage(rt)];
  const pages: Handler = compose([...front, staticFilesStage()]);

  const apiRoute = (method: HttpRoute['method'], stages: Stage[]): HttpRoute => ({
    method,
    path: `${API_PREFIX}/*`,
    info: { name: `${API_PREFIX}/*`, surface: 'admin', errorFormat: 'chat', fixedHeaders: API_ANSWER_HEADERS },
    handler: compose(stages),
  });
  const pageRoute = (path: string): HttpRoute => ({ method: 'GET', path, info: { name: `${DASHBOARD_PREFIX}/*`, surface: 'admin', errorFormat: 'chat' }, handler: pages });
  return [
    pageRoute(DASHBOARD_PREFIX),
    pageRoute(`${DASHBOARD_PREFIX}/*`),
    apiRoute('GET', [...front, api]),
    apiRoute('POST', [...front, ...withBody, api]),
    apiRoute('PATCH', [...front, ...withBody, api]),
    apiRoute('DELETE', [...front, api]),
  ];
}
