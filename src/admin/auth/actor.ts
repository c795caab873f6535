// Who is calling: an operator (bearer admin token, or a session started with it), a customer user (a
// session started with email and password), or nobody.
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../../dialects/errors/codes.js';
import { readCookie, SESSION_COOKIE } from '../http/cookies.js';
import { secretEquals } from '../../lib/secret-equal.js';
import { beginAttempt, OPERATOR_ACCOUNT } from './sign-in-attempt.js';
import type { AttemptGuard } from './sign-in-attempt.js';
import { credentialTag } from './session-store.js';
import type { Session, SessionStore } from './session-store.js';
import type { UserStore } from '../../stores/user-store.js';

/** Who a request acts for. Operators see every customer; a customer user sees only its own customer. */
export type Actor =
  | { role: 'operator' }
  | { role: 'customer'; customerId: string; userId: string; email: string };

export interface Caller {
  actor: Actor | null;
  /** Set when the caller is known through a session cookie (ambient credentials: CSRF rules apply). */
  session: { id: string; session: Session } | null;
}

const NOBODY: Caller = Object.freeze({ actor: null, session: null });

/** The throttle counts wrong bearer tokens like failed operator sign-ins. */
export interface ActorDeps extends AttemptGuard {
  adminToken: string;
  sessions: SessionStore;
  users: UserStore;
}

/** The token of `Authorization: Bearer <token>`; null for any other shape (never an empty string). */
export function bearerToken(authorization: string): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match === null ? null : (match[1] as string);
}

export async function identify(req: IncomingMessage, deps: ActorDeps): Promise<Caller> {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    // A script calling the API with the admin token directly; anything else in Authorization (another
    // token, another scheme, a bare or empty value) is refused rather than ignored, so a caller never
    // silently acts as someone else (e.g. through a stale cookie), and counted like a failed sign-in.
    // The correct token is never throttled (finding N4: one client behind a shared ingress address locked
    // every admin script out): only failures are counted, and only they wait out the throttle.
    const bearer = bearerToken(authorization);
    if (bearer !== null && secretEquals(bearer, deps.adminToken)) return { actor: { role: 'operator' }, session: null };
    await beginAttempt(deps, req, OPERATOR_ACCOUNT);
    throw new GatewayError('unauthenticated', 'The Authorization header is not "Bearer <admin token>".');
  }
  const id = readCookie(req, SESSION_COOKIE);
  if (id === null || id === '') return NOBODY;
  const session = await deps.sessions.get(id);
  if (session === null) return NOBODY;
  if (session.role === 'operator') {
    // Started with an admin token that has since been replaced: no longer an operator.
    if (session.credentialTag !== credentialTag(deps.adminToken)) return NOBODY;
    return { actor: { role: 'operator' }, session: { id, session } };
  }
  const user = session.userId === null ? null : await deps.users.get(session.userId);
  if (user === null) return NOBODY;
  return { actor: { role: 'customer', customerId: user.customerId, userId: user.id, email: user.email }, session: { id, session } };
}
