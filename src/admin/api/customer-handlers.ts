// Customers: operators list and create them and set their limits and budget; a customer user may read only
// its own (with its budget and what it has spent of it).
import { GatewayError } from '../../dialects/errors/codes.js';
import type { KeyCache } from '../../keys/key-cache.js';
import type { Customer, KeyStore } from '../../keys/key-store.js';
import { KeyStoreError } from '../../keys/key-store.js';
import type { CustomerDefaults } from '../../keys/principal.js';
import type { UsageStore } from '../../metering/usage-store.js';
import type { AuditRecorder } from '../audit/record-audit.js';
import { apiSource, recordAudit } from '../audit/record-audit.js';
import { customerBudgetChanged, customerCreated, customerLimitsChanged } from '../audit/audit-changes.js';
import { budgetStatus } from './budget-status.js';
import { customerOr404 } from './customer-lookup.js';
import { budgetChange, changedPositiveInteger, requiredString } from './input.js';
import type { ApiRoute } from './types.js';
import { ok } from './types.js';
import { customerLimitsView } from './views.js';

export interface CustomerDeps {
  keyStore: KeyStore;
  /** This process's key cache: refreshed at once after a limit change (other instances within seconds). */
  keyCache: KeyCache;
  /** A customer's limits when it has none stored (GATEWAY_CUSTOMER_LIMITS), as the key cache applies them. */
  customerDefaults: CustomerDefaults;
  /** What a budgeted customer has spent in the current period. */
  usageStore: Pick<UsageStore, 'totals'>;
  /** The admin trail: every customer created, every limit and budget set here is a row. */
  audit: AuditRecorder;
}

export function customerRoutes(deps: CustomerDeps): ApiRoute[] {
  const { keyStore, customerDefaults, usageStore } = deps;
  const withBudgetStatus = async (c: Customer) => ({
    ...customerLimitsView(c, customerDefaults),
    budgetStatus: await budgetStatus(usageStore, c.budget, { customerId: c.id, keyId: null }),
  });
  return [
    {
      method: 'GET',
      pattern: '/customers',
      access: 'operator',
      handler: async () => {
        const [customers, keys] = await Promise.all([keyStore.listCustomers(), keyStore.listKeys()]);
        const activeKeys = new Map<string, number>();
        for (const k of keys) if (k.status === 'active') activeKeys.set(k.customerId, (activeKeys.get(k.customerId) ?? 0) + 1);
        const shown = await Promise.all(customers.map(async (c) => ({ ...(await withBudgetStatus(c)), activeKeys: activeKeys.get(c.id) ?? 0 })));
        return ok({ customers: shown });
      },
    },
    {
      method: 'POST',
      pattern: '/customers',
      access: 'operator',
      handler: async (req) => {
        const name = requiredString(req.body, 'name', 200).trim();
        if ((await keyStore.getCustomerByName(name)) !== null) throw new GatewayError('conflict', `A customer named "${name}" already exists.`, { param: 'name' });
        try {
          const created = await keyStore.createCustomer(name);
          await recordAudit(deps.audit, apiSource(req), customerCreated(created));
          return ok({ customer: customerLimitsView(created, customerDefaults) }, 201);
        } catch (err) {
          if (err instanceof KeyStoreError) throw new GatewayError('invalid_request', err.message, { param: 'name' });
          throw err;
        }
      },
    },
    {
      method: 'GET',
      pattern: '/customers/:customerId',
      access: 'customer',
      handler: async (req) => ok({ customer: await withBudgetStatus(await customerOr404(keyStore, req.params.customerId)) }),
    },
    {
      // Only the fields given change (in one statement): amountUsd null or '' removes the budget; a new
      // one's period defaults to month, its mode to hard; amountPeriod or amountMode alone change those.
      method: 'POST',
      pattern: '/customers/:customerId/budget',
      access: 'operator',
      handler: async (req) => {
        const budget = budgetChange(req.body, 'amount');
        if (budget === undefined) throw new GatewayError('invalid_request', 'Nothing to change: give amountUsd, amountPeriod or amountMode.', { param: 'amountUsd' });
        const customer = await customerOr404(keyStore, req.params.customerId);
        try {
          const updated = await keyStore.setCustomerBudget(customer.id, budget);
          await deps.keyCache.refresh();
          await recordAudit(deps.audit, apiSource(req), customerBudgetChanged(customer, updated));
          return ok({ customer: await withBudgetStatus(updated) });
        } catch (err) {
          if (err instanceof KeyStoreError) throw new GatewayError('invalid_request', err.message);
          throw err;
        }
      },
    },
    {
      // Only the fields given change (in one statement): null removes the customer's own limit on that dimension.
      method: 'POST',
      pattern: '/customers/:customerId/limits',
      access: 'operator',
      handler: async (req) => {
        const limits = { rpm: changedPositiveInteger(req.body, 'rpm'), tpm: changedPositiveInteger(req.body, 'tpm') };
        if (limits.rpm === undefined && limits.tpm === undefined) throw new GatewayError('invalid_request', 'Nothing to change: give rpm or tpm.', { param: 'rpm' });
        const customer = await customerOr404(keyStore, req.params.customerId);
        try {
          const updated = await keyStore.setCustomerLimits(customer.id, limits);
          await deps.keyCache.refresh();
          await recordAudit(deps.audit, apiSource(req), customerLimitsChanged(customer, updated));
          return ok({ customer: customerLimitsView(updated, customerDefaults) });
        } catch (err) {
          if (err instanceof KeyStoreError) throw new GatewayError('invalid_request', err.message);
          throw err;
        }
      },
    },
  ];
}
