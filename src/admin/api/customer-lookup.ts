// The customer a /customers/:customerId/... call names, or a 404.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { Customer, KeyStore } from '../../keys/key-store.js';

export async function customerOr404(keyStore: KeyStore, id: string): Promise<Customer> {
  const customer = await keyStore.getCustomer(id);
  if (customer === null) throw new GatewayError('not_found', 'No such customer.');
  return customer;
}
