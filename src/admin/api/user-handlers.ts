// Customer > Users (operators only): the people who sign in to one customer's pages.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { PasswordHasher } from '../auth/passwords.js';
import type { UserStore } from '../../stores/user-store.js';
import { normaliseEmail, UserExistsError } from '../../stores/user-store.js';
import type { AuditRecorder } from '../audit/record-audit.js';
import { apiSource, recordAudit } from '../audit/record-audit.js';
import { userCreated, userDeleted } from '../audit/audit-changes.js';
import { customerOr404 } from './customer-lookup.js';
import { requiredNewPassword, requiredString } from './input.js';
import type { ApiRequest, ApiRoute } from './types.js';
import { ok } from './types.js';
import { userView } from './views.js';

export interface UserDeps {
  keyStore: KeyStore;
  users: UserStore;
  passwords: PasswordHasher;
  /** The admin trail: every user created or removed here is a row. */
  audit: AuditRecorder;
}

export function userRoutes(deps: UserDeps): ApiRoute[] {
  const { keyStore, users } = deps;
  return [
    {
      method: 'GET',
      pattern: '/customers/:customerId/users',
      access: 'operator',
      handler: async (req) => {
        const customer = await customerOr404(keyStore, req.params.customerId);
        return ok({ users: (await users.listByCustomer(customer.id)).map(userView) });
      },
    },
    { method: 'POST', pattern: '/customers/:customerId/users', access: 'operator', handler: (req) => createUser(deps, req) },
    {
      method: 'DELETE',
      pattern: '/customers/:customerId/users/:userId',
      access: 'operator',
      handler: async (req) => {
        const user = await users.get(req.params.userId);
        if (user === null || user.customerId !== req.params.customerId) throw new GatewayError('not_found', 'No such user.');
        if (await users.remove(user.id)) {
          await recordAudit(deps.audit, apiSource(req), userDeleted(user));
        }
        return ok({ deleted: true });
      },
    },
  ];
}

async function createUser({ keyStore, users, passwords, audit }: UserDeps, req: ApiRequest) {
  const customer = await customerOr404(keyStore, req.params.customerId);
  const email = normaliseEmail(requiredString(req.body, 'email', 254));
  if (email === null) throw new GatewayError('invalid_request', 'email is not an email address.', { param: 'email' });
  const password = requiredNewPassword(req.body, 'password');
  try {
    const user = await users.create(customer.id, email, await passwords.hash(password));
    await recordAudit(audit, apiSource(req), userCreated(user));
    return ok({ user: userView(user) }, 201);
  } catch (err) {
    if (err instanceof UserExistsError) throw new GatewayError('conflict', 'A user with this email already exists.', { param: 'email' });
    throw err;
  }
}
