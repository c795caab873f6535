// Who is calling: an operator (bearer admin token, or a session started with it), a customer user (a
// session started with email and password), or nobody.
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../../errors/codes.js';
import { readCookie, SESSION_COOKIE } from '../http/cookies.js';
import type { Actor } from '../api/types.js';
import { secretEquals } from './secret-equal.js';
import { credentialTag } from './session-store.js';
import type { Session, SessionStore } from './session-store.js';
import type { UserStore } from './user-store.js';

export interface Caller {
  actor: Actor | null;
  /** Set when the caller is known through a session cookie (ambient credentials: CSRF rules apply). */
  session: { id: string; session: Session } | null;
}

const NOBODY: Caller = Object.freeze({ actor: null, session: null });

export interface ActorDeps {
  adminToken: string;
  sessions: SessionStore;
  users: UserStore;
}

function bearerOf(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match ? match[1] : '';
}

export async function identify(req: IncomingMessage, deps: ActorDeps): Promise<Caller> {
  const bearer = bearerOf(req);
  if (bearer !== null) {
    // A script calling the API with the admin token directly; anything else in Authorization is refused
    // rather than ignored, so a caller never silently acts as someone else (e.g. through a stale cookie).
    if (!secretEquals(bearer, deps.adminToken)) throw new GatewayError('unauthenticated', 'The bearer token is not the admin token.');
    return { actor: { role: 'operator' }, session: null };
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
