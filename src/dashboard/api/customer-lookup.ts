// The customer a /customers/:customerId/... call names, or a 404.
import { GatewayError } from '../../errors/codes.js';
import type { Customer, KeyStore } from '../../keys/key-store.js';

export async function customerOr404(keyStore: KeyStore, id: string): Promise<Customer> {
  // The key store looks customers up by name only; the list is small (one row per customer).
  const customer = (await keyStore.listCustomers()).find((c) => c.id === id);
  if (customer === undefined) throw new GatewayError('not_found', 'No such customer.');
  return customer;
}
