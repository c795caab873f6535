import t from 'tap';
import { customerOr404 } from '../../../../src/admin/api/customer-lookup.js';
import { GatewayError } from '../../../../src/dialects/errors/codes.js';
import { counting, openStore } from '../../keys/fixtures/store.js';

t.test('customerOr404: the customer by id with one lookup, or a 404', async (t) => {
  const { store: real } = openStore(t);
  const acme = await real.createCustomer('acme');
  await real.createCustomer('other');
  const { store, calls } = counting(real);
  t.same(await customerOr404(store, acme.id), acme);
  t.same(calls, { getCustomer: 1 }, 'asked by id, not by listing every customer');
  const refused = await customerOr404(store, 'cus_nope').catch((err: unknown) => err);
  t.ok(refused instanceof GatewayError);
  t.match(refused, { code: 'not_found' });
});
