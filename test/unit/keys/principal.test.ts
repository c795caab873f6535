import t from 'tap';
import type { KeyRecord } from '../../../src/keys/key-store.js';
import { mayUseModel, principalOf } from '../../../src/keys/principal.js';

const record = (allowedModels: string[] | null): KeyRecord => ({
  id: 'k', customerId: 'c', customerName: 'acme', name: null, prefix: 'mgw_0000', createdAt: '2030-01-01T00:00:00Z',
  lastUsedAt: null, expiresAt: null, allowedModels, rpm: null, tpm: null, status: 'active', revokedAt: null,
});

t.test('mayUseModel: an allow-list admits only its models', async (t) => {
  const p = principalOf(record(['m1', 'm2']));
  t.ok(mayUseModel(p, 'm1'));
  t.ok(mayUseModel(p, 'm2'));
  t.notOk(mayUseModel(p, 'm3'));
});

t.test('mayUseModel: no allow-list, or no key at all, limits nothing', async (t) => {
  t.ok(mayUseModel(principalOf(record(null)), 'anything'));
  t.ok(mayUseModel(null, 'anything'));
});
