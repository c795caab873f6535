// Sign-in, who-am-I and sign-out. Operators sign in with the admin token; customer users with email and
// password. Failures are throttled per account and per client address, and all say the same thing.
import { addressGroup } from '../../ratelimit/auth-throttle.js';
import { clientAddress } from '../../ratelimit/client-address.js';
import { GatewayError } from '../../errors/codes.js';
import type { KeyStore } from '../../keys/key-store.js';
import { decoyHash, verifyPassword } from '../auth/passwords.js';
import { secretEquals } from '../auth/secret-equal.js';
import { credentialTag } from '../auth/session-store.js';
import type { Role, SessionStore } from '../auth/session-store.js';
import type { SignInThrottle, Subjects } from '../auth/throttle.js';
import type { UserStore } from '../auth/user-store.js';
import { normaliseEmail } from '../auth/user-store.js';
import { sessionCookie } from '../http/cookies.js';
import { customerOr404 } from './customer-lookup.js';
import { optionalString } from './input.js';
import type { ApiRequest, ApiRoute } from './types.js';
import { ok } from './types.js';
import { customerView } from './views.js';

export interface SessionDeps {
  adminToken: string;
  keyStore: KeyStore;
  sessions: SessionStore;
  users: UserStore;
  throttle: SignInThrottle;
  /** Proxies whose X-Forwarded-For is believed (GATEWAY_TRUSTED_PROXIES), as for the key throttle. */
  trustedProxies: ReadonlySet<string>;
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
  const subjects: Subjects = { account: token !== null ? 'operator' : normaliseEmail(email ?? '') ?? '?', address: signInAddress(deps, req) };
  const waitMs = deps.throttle.begin(subjects);
  if (waitMs > 0) {
    const seconds = String(Math.ceil(waitMs / 1000));
    throw new GatewayError('rate_limited', 'Too many failed sign-ins; try again later.', { headers: { 'retry-after': seconds } });
  }
  const who = token !== null ? checkToken(deps, token) : await checkPassword(deps, subjects.account, password ?? '');
  if (who === null) throw new GatewayError('unauthenticated', REFUSED);
  deps.throttle.succeeded(subjects);
  const { id, session } = await deps.sessions.create(who.role, who.userId, who.role === 'operator' ? credentialTag(deps.adminToken) : null);
  const cookie = sessionCookie(req.ctx.req, id, session.expiresAt - session.createdAt);
  const reply = await whoAmI(deps, { ...req, actor: null, session: { id, session } });
  return { ...reply, headers: { 'set-cookie': cookie } };
}

type SignedIn = { role: Role; userId: string | null };

function checkToken(deps: SessionDeps, token: string): SignedIn | null {
  return secretEquals(token, deps.adminToken) ? { role: 'operator', userId: null } : null;
}

async function checkPassword(deps: SessionDeps, email: string, password: string): Promise<SignedIn | null> {
  const found = await deps.users.credentialsFor(email);
  // An unknown email still costs one scrypt, so timing does not tell which emails exist.
  const matches = await verifyPassword(password, found?.passwordHash ?? (await decoyHash()));
  if (found === null || !matches) return null;
  await deps.users.recordSignIn(found.user.id, new Date());
  return { role: 'customer', userId: found.user.id };
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

/** The client behind a trusted proxy, IPv6 grouped by /64: the same address rule as the key throttle. */
function signInAddress(deps: SessionDeps, req: ApiRequest): string {
  const { socket, headers } = req.ctx.req;
  return addressGroup(clientAddress(socket.remoteAddress, headers['x-forwarded-for'], deps.trustedProxies));
}
