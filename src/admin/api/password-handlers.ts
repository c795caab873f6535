// A customer user changes its own password: the current one is required (checked under the sign-in
// throttle, so a borrowed session cannot guess it faster than a sign-in could), the new one follows the
// same rules as at creation, and every other session of the user ends.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { PasswordHasher } from '../auth/passwords.js';
import { MAX_PASSWORD_LENGTH } from '../auth/passwords.js';
import type { SessionStore } from '../auth/session-store.js';
import { beginAttempt } from '../auth/sign-in-attempt.js';
import type { AttemptGuard } from '../auth/sign-in-attempt.js';
import type { UserStore } from '../../stores/user-store.js';
import type { AuditRecorder } from '../audit/record-audit.js';
import { apiSource, recordAudit } from '../audit/record-audit.js';
import { passwordChanged } from '../audit/audit-changes.js';
import { requiredNewPassword, requiredString } from './input.js';
import type { ApiRequest, ApiRoute } from './types.js';
import { ok } from './types.js';

export interface PasswordDeps extends AttemptGuard {
  users: UserStore;
  sessions: SessionStore;
  passwords: PasswordHasher;
  /** The admin trail: a changed password is a row (that it changed, never what to). */
  audit: AuditRecorder;
}

/** What a successful change answers. */
export interface PasswordChanged {
  changed: true;
  /** Sessions of the user on other browsers or devices that were ended. */
  otherSessionsEnded: number;
}

export function passwordRoutes(deps: PasswordDeps): ApiRoute[] {
  return [{ method: 'POST', pattern: '/session/password', access: 'signed-in', handler: (req) => changePassword(deps, req) }];
}

async function changePassword(deps: PasswordDeps, req: ApiRequest) {
  const { actor, session } = req;
  if (actor?.role !== 'customer' || session === null) {
    throw new GatewayError('forbidden', 'Only customer users have a password here; operators sign in with the admin token.');
  }
  const current = requiredString(req.body, 'currentPassword', MAX_PASSWORD_LENGTH);
  const next = requiredNewPassword(req.body, 'newPassword');
  if (next === current) throw new GatewayError('invalid_request', 'The new password must differ from the current one.', { param: 'newPassword' });

  const subjects = await beginAttempt(deps, req.ctx.req, actor.email);
  const found = await deps.users.credentialsFor(actor.email);
  const check = found === null ? null : await deps.passwords.check(current, found.passwordHash);
  // 403, not 401: the session is fine, and a 401 would sign the page out.
  if (found === null || check === null || !check.matches) throw new GatewayError('forbidden', 'The current password is wrong.', { param: 'currentPassword' });
  deps.throttle.succeeded(subjects);

  const replaced = await deps.users.replacePasswordHash(found.user.id, found.passwordHash, await deps.passwords.hash(next));
  if (!replaced) throw new GatewayError('conflict', 'The password was changed at the same time elsewhere; sign in again and retry.');
  // Whoever else holds a session (a lost laptop, a stolen cookie) is out; this browser stays signed in.
  const otherSessionsEnded = await deps.sessions.removeOthersOfUser(found.user.id, session.id);
  await recordAudit(deps.audit, apiSource(req), passwordChanged(found.user, otherSessionsEnded));
  const body: PasswordChanged = { changed: true, otherSessionsEnded };
  return ok(body);
}
