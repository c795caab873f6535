// Sign-in, who-am-I and sign-out. Operators sign in with the admin token; customer users with email and
// password. Failures are throttled (see ../auth/throttle.ts), and all say the same thing.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { PasswordHasher } from '../auth/passwords.js';
import { secretEquals } from '../../lib/secret-equal.js';
import { credentialTag } from '../auth/session-store.js';
import type { SessionStore } from '../auth/session-store.js';
import type { Role } from '../../stores/session-rows.js';
import { beginAttempt, OPERATOR_ACCOUNT } from '../auth/sign-in-attempt.js';
import type { AttemptGuard } from '../auth/sign-in-attempt.js';
import type { UserStore } from '../../stores/user-store.js';
import { normaliseEmail, type DashboardUser } from '../../stores/user-store.js';
import { sessionCookie } from '../http/cookies.js';
import type { AuditRecorder } from '../audit/record-audit.js';
import { recordAudit } from '../audit/record-audit.js';
import { customerOr404 } from './customer-lookup.js';
import { optionalString } from './input.js';
import type { ApiRequest, ApiRoute } from './types.js';
import { ok } from './types.js';
import { customerView } from './views.js';

export interface SessionDeps extends AttemptGuard {
  adminToken: string;
  keyStore: KeyStore;
  sessions: SessionStore;
  users: UserStore;
  passwords: PasswordHasher;
  /** The admin trail: every sign-in, and every refused one, is a row. */
  audit: AuditRecorder;
}

const REFUSED = 'Sign-in refused: wrong token, email or password.';

export function sessionRoutes(deps: SessionDeps): ApiRoute[] {
  return [
    { method: 'POST', pattern: '/session', access: 'public', handler: (req) => signIn(deps, req) },
    { method: 'GET', pattern: '/session', access: 'signed-in', handler: (req) => whoAmI(deps, req) },
    { method: 'DELETE', pattern: '/session', access: 'signed-in', handler: (req) => signOut(deps, req) },
  ];
}

async function signIn(deps: SessionDeps, req: ApiRequest) {
  const token = optionalString(req.body, 'token', 1024);
  const email = optionalString(req.body, 'email', 254);
  const password = optionalString(req.body, 'password', 1024);
  if (token === null && (email === null || password === null)) {
    throw new GatewayError('invalid_request', 'Send either token (operators) or email and password (customer users).');
  }
  const subjects = await beginAttempt(deps, req.ctx.req, token !== null ? OPERATOR_ACCOUNT : normaliseEmail(email ?? '') ?? '?');
  const attempt = token !== null ? checkToken(deps, token) : await checkPassword(deps, subjects.account, password ?? '');
  // The account tried (the operator's, or an e-mail as normalised; '?' when it was not one), never the
  // secret; a user's customer sees the attempts on its own users.
  const audited = { actor: subjects.account, address: req.address };
  const customerId = attempt.user?.customerId ?? null;
  const targetId = attempt.user?.id ?? null;
  if (attempt.signedIn === null) {
    await recordAudit(deps.audit, audited, { action: 'session.sign_in_failed', customerId, targetId });
    throw new GatewayError('unauthenticated', REFUSED);
  }
  const who = attempt.signedIn;
  deps.throttle.succeeded(subjects);
  const { id, session } = await deps.sessions.create(who.role, who.userId, who.role === 'operator' ? credentialTag(deps.adminToken) : null);
  await recordAudit(deps.audit, audited, { action: 'session.sign_in', customerId, targetId });
  const cookie = sessionCookie(req.ctx.req, id, session.expiresAt - session.createdAt);
  const reply = await whoAmI(deps, { ...req, actor: null, session: { id, session } });
  return { ...reply, headers: { 'set-cookie': cookie } };
}

type SignedIn = { role: Role; userId: string | null };

/** Whether the secret was right, and the user whose account was tried (none for the operator's or an unknown email). */
interface Attempt {
  signedIn: SignedIn | null;
  user: DashboardUser | null;
}

function checkToken(deps: SessionDeps, token: string): Attempt {
  return { signedIn: secretEquals(token, deps.adminToken) ? { role: 'operator', userId: null } : null, user: null };
}

async function checkPassword(deps: SessionDeps, email: string, password: string): Promise<Attempt> {
  const found = await deps.users.credentialsFor(email);
  // An unknown email still costs one scrypt, so timing does not tell which emails exist.
  const check = await deps.passwords.check(password, found?.passwordHash ?? (await deps.passwords.decoy()));
  if (found === null || !check.matches) return { signedIn: null, user: found?.user ?? null };
  // Only now is the password at hand: a hash made at an older cost is replaced by one at today's.
  if (check.outdated) await deps.users.replacePasswordHash(found.user.id, found.passwordHash, await deps.passwords.hash(password));
  await deps.users.recordSignIn(found.user.id, new Date());
  return { signedIn: { role: 'customer', userId: found.user.id }, user: found.user };
}

/** The signed-in caller, and the token its page sends back on state-changing calls. */
async function whoAmI(deps: SessionDeps, req: ApiRequest) {
  const session = req.session?.session ?? null;
  const base = { csrfToken: session?.csrfToken ?? null, expiresAt: session === null ? null : new Date(session.expiresAt).toISOString() };
  const userId = session?.userId ?? (req.actor?.role === 'customer' ? req.actor.userId : null);
  if (userId === null) return ok({ role: 'operator', email: null, customer: null, ...base });
  const user = await deps.users.get(userId);
  if (user === null) throw new GatewayError('unauthenticated', 'Sign in first.');
  const customer = await customerOr404(deps.keyStore, user.customerId);
  return ok({ role: 'customer', email: user.email, customer: customerView(customer), ...base });
}

async function signOut(deps: SessionDeps, req: ApiRequest) {
  if (req.session !== null) await deps.sessions.remove(req.session.id);
  return { status: 200, body: { signedOut: true }, headers: { 'set-cookie': sessionCookie(req.ctx.req, '', 0) } };
}
