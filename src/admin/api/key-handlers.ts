// Customer > API Keys: list, create (the full key is in that one answer and nowhere else), edit (key-edit.ts), revoke.
import type { Catalogue } from '../../catalog/catalogue.js';
import { GatewayError } from '../../dialects/errors/codes.js';
import type { KeyCache } from '../../keys/key-cache.js';
import type { KeyStore } from '../../keys/key-store.js';
import { KeyLimitError, KeyStoreError } from '../../keys/key-store.js';
import { customerLimitsOf, type CustomerDefaults } from '../../keys/principal.js';
import type { RateLimits } from '../../keys/rate-limits.js';
import type { UsageStore } from '../../metering/usage-store.js';
import type { AuditRecorder } from '../audit/record-audit.js';
import { apiSource, recordAudit } from '../audit/record-audit.js';
import { keyCreated, keyRevoked } from '../audit/audit-changes.js';
import { budgetStatus } from './budget-status.js';
import { customerOr404 } from './customer-lookup.js';
import { assertKeyBudgetWithinCustomer } from './key-budget-ceiling.js';
import { editKey } from './key-edit.js';
import { keyLimitProblem } from './key-limits.js';
import { optionalBudget, optionalPositiveInteger, optionalString, optionalStringList } from './input.js';
import type { ApiRequest, ApiRoute } from './types.js';
import { ok } from './types.js';
import { keyView } from './views.js';

export interface KeyDeps {
  keyStore: KeyStore;
  catalogue: Catalogue;
  /** This process's key cache: refreshed at once after an edit or a revoke (other instances poll within seconds). */
  keyCache: KeyCache;
  /** A customer's limits when it has none stored (GATEWAY_CUSTOMER_LIMITS), as the key cache applies them. */
  customerDefaults: CustomerDefaults;
  /** What a budgeted key has spent in the current period. */
  usageStore: Pick<UsageStore, 'totals'>;
  /** The admin trail: every key created, edited or revoked here is a row. */
  audit: AuditRecorder;
  /** Active keys a customer may hold (GATEWAY_MAX_KEYS_PER_CUSTOMER); 0: no cap. */
  maxKeysPerCustomer: number;
}

export function keyRoutes(deps: KeyDeps): ApiRoute[] {
  const { keyStore } = deps;
  return [
    {
      method: 'GET',
      pattern: '/customers/:customerId/keys',
      access: 'customer',
      handler: async (req) => {
        const customer = await customerOr404(keyStore, req.params.customerId);
        const now = Date.now();
        const keys = await keyStore.listKeys({ customerId: customer.id });
        const shown = await Promise.all(
          keys.map(async (k) => ({ ...keyView(k, now), budgetStatus: await budgetStatus(deps.usageStore, k.budget, { customerId: customer.id, keyId: k.id }, now) })),
        );
        return ok({ keys: shown });
      },
    },
    { method: 'POST', pattern: '/customers/:customerId/keys', access: 'customer', handler: (req) => createKey(deps, req) },
    {
      method: 'PATCH',
      pattern: '/customers/:customerId/keys/:keyId',
      access: 'customer',
      handler: (req) => editKey(deps, req, (name) => catalogueId(deps.catalogue, name)),
    },
    {
      method: 'DELETE',
      pattern: '/customers/:customerId/keys/:keyId',
      access: 'customer',
      handler: async (req) => {
        const record = await keyStore.getKey(req.params.keyId);
        // A key of another customer is "not found" here, exactly like a key that does not exist.
        if (record === null || record.customerId !== req.params.customerId) throw new GatewayError('not_found', 'No such key.');
        const revoked = await keyStore.revokeKey(record.id);
        await deps.keyCache.refresh();
        const after = (await keyStore.getKey(record.id)) ?? record;
        if (revoked) {
          await recordAudit(deps.audit, apiSource(req), keyRevoked(record, after));
        }
        return ok({ key: keyView(after) });
      },
    },
  ];
}

async function createKey(deps: KeyDeps, req: ApiRequest) {
  const customer = await customerOr404(deps.keyStore, req.params.customerId);
  const allowed = optionalStringList(req.body, 'allowedModels', 200);
  const limits: RateLimits = { rpm: optionalPositiveInteger(req.body, 'rpm'), tpm: optionalPositiveInteger(req.body, 'tpm') };
  if (req.actor?.role === 'customer') {
    const problem = keyLimitProblem(limits, customerLimitsOf(customer, customer.name, deps.customerDefaults));
    if (problem !== null) throw new GatewayError('forbidden', problem.message, { param: problem.param });
  }
  const budget = optionalBudget(req.body, 'budget');
  assertKeyBudgetWithinCustomer(req.actor, budget, customer.budget);
  try {
    const { record, key } = await deps.keyStore.createKey({
      customerId: customer.id,
      name: optionalString(req.body, 'name', 200),
      expiresAt: optionalString(req.body, 'expiresAt', 64),
      allowedModels: allowed === null ? null : allowed.map((m) => catalogueId(deps.catalogue, m)),
      ...limits,
      budget,
      maxActiveKeys: deps.maxKeysPerCustomer,
    });
    await recordAudit(deps.audit, apiSource(req), keyCreated(record));
    return ok({ key: keyView(record), secret: key }, 201);
  } catch (err) {
    if (err instanceof KeyLimitError) throw new GatewayError('conflict', `This customer already has ${err.limit} active keys, the most allowed (GATEWAY_MAX_KEYS_PER_CUSTOMER); revoke one first.`);
    // The store's own rules (shared with the command line) say what is wrong with the settings.
    if (err instanceof KeyStoreError) throw new GatewayError('invalid_request', err.message);
    throw err;
  }
}

/** A model the catalogue knows (by id or alias), as its canonical id; the dashboard offers only these. */
function catalogueId(catalogue: Catalogue, name: string): string {
  const model = catalogue.resolve(name);
  if (model === null) throw new GatewayError('invalid_request', `Model "${name.slice(0, 100)}" is not in the catalogue.`, { param: 'allowedModels' });
  return model.id;
}
