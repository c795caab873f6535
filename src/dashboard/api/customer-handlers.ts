// Customers: operators list and create them; a customer user may read only its own.
import { GatewayError } from '../../errors/codes.js';
import type { KeyStore } from '../../keys/key-store.js';
import { KeyStoreError } from '../../keys/key-store.js';
import { customerOr404 } from './customer-lookup.js';
import { requiredString } from './input.js';
import type { ApiRoute } from './types.js';
import { ok } from './types.js';
import { customerView } from './views.js';

export function customerRoutes(keyStore: KeyStore): ApiRoute[] {
  return [
    {
      method: 'GET',
      pattern: '/customers',
      access: 'operator',
      handler: async () => {
        const [customers, keys] = await Promise.all([keyStore.listCustomers(), keyStore.listKeys()]);
        const activeKeys = new Map<string, number>();
        for (const k of keys) if (k.status === 'active') activeKeys.set(k.customerId, (activeKeys.get(k.customerId) ?? 0) + 1);
        return ok({ customers: customers.map((c) => ({ ...customerView(c), activeKeys: activeKeys.get(c.id) ?? 0 })) });
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
          return ok({ customer: customerView(await keyStore.createCustomer(name)) }, 201);
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
      handler: async (req) => ok({ customer: customerView(await customerOr404(keyStore, req.params.customerId)) }),
    },
  ];
}
