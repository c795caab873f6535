import t from 'tap';
import type { KeyRecord } from '../../../src/keys/key-store.js';
import { customerLimitsOf, mayUseModel, principalOf } from '../../../src/keys/principal.js';
import { customerLimitsLookup } from '../../../src/policy/ratelimit/request-limits.js';

const record = (allowedModels: string[] | null): KeyRecord => ({
  id: 'k', customerId: 'c', customerName: 'acme', name: null, prefix: 'mgw_0000', createdAt: '2030-01-01T00:00:00Z',
  lastUsedAt: null, expiresAt: null, allowedModels, rpm: null, tpm: null, status: 'active', revokedAt: null,
  customerRpm: null, customerTpm: null, budget: null, customerBudget: null,
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

t.test('customer limits: the stored ones when either is set, else the configured default by name or *', async (t) => {
  const defaults = customerLimitsLookup({ acme: { rpm: 600, tpm: 400_000 }, '*': { rpm: 60, tpm: null } });
  t.same(customerLimitsOf({ rpm: null, tpm: 1000 }, 'acme', defaults), { rpm: null, tpm: 1000 }, 'stored: the default is not merged in');
  t.same(customerLimitsOf({ rpm: null, tpm: null }, 'acme', defaults), { rpm: 600, tpm: 400_000 });
  t.same(customerLimitsOf({ rpm: null, tpm: null }, 'beta', defaults), { rpm: 60, tpm: null });
  t.equal(customerLimitsOf({ rpm: null, tpm: null }, 'beta', () => null), null);
  t.equal(customerLimitsOf({ rpm: null, tpm: null }, 'acme', customerLimitsLookup({ acme: { rpm: null, tpm: null }, '*': { rpm: 1, tpm: null } })), null, 'an entry without limits limits nothing');

  const stored = principalOf({ ...record(null), customerName: 'acme', customerRpm: 5, customerTpm: null }, defaults);
  t.same(stored.customerLimits, { rpm: 5, tpm: null });
  t.ok(Object.isFrozen(stored.customerLimits));
  t.same(principalOf(record(null), defaults).customerLimits, { rpm: 600, tpm: 400_000 });
  t.equal(principalOf(record(null)).customerLimits, null, 'no defaults given: only stored limits count');
});
